-- Publish pipeline: TOTP per user, scoped tokens and CLI sessions, device sign-in, submissions
-- checked by the gate, and the history of which version was live when.

-- TOTP (RFC 6238): the base32 secret sealed with the host's secret key; the last accepted time
-- step, so one code is never accepted twice.
ALTER TABLE users ADD COLUMN totp_secret text;
ALTER TABLE users ADD COLUMN totp_enabled_at timestamptz;
ALTER TABLE users ADD COLUMN totp_last_step bigint;

-- Kinds: 'session' (browser cookie), 'token' (personal access token), 'cli' (device sign-in).
-- scopes: space-separated ('publish read'); NULL means every scope (browser and CLI sessions).
-- mfa_pending: a session of a user with TOTP, not yet confirmed with a code.
ALTER TABLE sessions DROP CONSTRAINT sessions_kind_check;
ALTER TABLE sessions ADD CONSTRAINT sessions_kind_check CHECK (kind IN ('session', 'token', 'cli'));
ALTER TABLE sessions ADD COLUMN scopes text;
ALTER TABLE sessions ADD COLUMN mfa_pending boolean NOT NULL DEFAULT false;

-- Device authorization (RFC 8628 shape). Only a SHA-256 of the device code is stored.
CREATE TABLE device_codes (
  device_code_hash text PRIMARY KEY,
  user_code text NOT NULL UNIQUE,
  client_name text,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'denied', 'issued')),
  user_id text REFERENCES users (id) ON DELETE CASCADE,
  interval_seconds integer NOT NULL,
  last_polled_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);

-- One upload of a packed project; the gate checks it once for every integration it carries.
CREATE TABLE submissions (
  id text PRIMARY KEY,
  source_id text NOT NULL REFERENCES sources (id) ON DELETE CASCADE,
  user_id text REFERENCES users (id) ON DELETE SET NULL,
  archive bytea NOT NULL,
  archive_sha256 text NOT NULL,
  status text NOT NULL DEFAULT 'submitted' CHECK (status IN ('submitted', 'checking', 'rejected', 'passed')),
  checks jsonb NOT NULL DEFAULT '[]',
  findings jsonb NOT NULL DEFAULT '[]',
  attempts integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz
);

-- A submitted version has no manifest or bundle until the gate built them.
ALTER TABLE versions ALTER COLUMN manifest DROP NOT NULL;
ALTER TABLE versions ALTER COLUMN bundle DROP NOT NULL;
ALTER TABLE versions ADD COLUMN submission_id text REFERENCES submissions (id) ON DELETE SET NULL;
ALTER TABLE versions ADD COLUMN review jsonb;
ALTER TABLE versions ADD COLUMN verdict_at timestamptz;
ALTER TABLE versions ADD COLUMN decided_by text REFERENCES users (id) ON DELETE SET NULL;
ALTER TABLE versions ADD COLUMN decided_at timestamptz;
ALTER TABLE versions ADD COLUMN decision text CHECK (decision IN ('promoted', 'rejected', 'rolled_back'));
ALTER TABLE versions ADD COLUMN decision_reason text;
CREATE INDEX versions_by_submission ON versions (submission_id);

-- Every change of an integration's live version, newest last: what rollback goes back along.
CREATE TABLE live_history (
  id bigserial PRIMARY KEY,
  integration_slug text NOT NULL REFERENCES integrations (slug) ON DELETE CASCADE,
  version_id text NOT NULL REFERENCES versions (id) ON DELETE CASCADE,
  reason text NOT NULL CHECK (reason IN ('install', 'dev', 'promote', 'rollback')),
  made_live_by text REFERENCES users (id) ON DELETE SET NULL,
  made_live_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX live_history_by_slug ON live_history (integration_slug, id);
