#!/usr/bin/env bash
# The browser tests drive Debian's Chromium with playwright-core. Installs it when missing (CI runs
# this from .ci/run; run it yourself once on a fresh Debian machine). Needs root or sudo for apt-get.
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then
  exit 0
fi
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq chromium >/dev/null
chromium --version
