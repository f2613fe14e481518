// Checks every built package the way a consumer's tools will see it: publint for package.json
// and files, @arethetypeswrong/cli for the types each `exports` entry resolves to.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const bin = (name) => join(import.meta.dirname, '..', 'node_modules', '.bin', name);
const packages = readdirSync(join(import.meta.dirname, '..', 'packages')).map((name) =>
  join(import.meta.dirname, '..', 'packages', name),
);

let failed = 0;
for (const dir of packages) {
  const { name, exports = {} } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  // attw checks the types of code entry points; a stylesheet export (`./styles.css`) has none to check.
  const assets = Object.entries(exports)
    .filter(([, target]) => typeof target === 'string' && /\.css$/.test(target))
    .map(([entry]) => entry);
  const exclude = assets.length > 0 ? ['--exclude-entrypoints', ...assets] : [];
  for (const [tool, args] of [
    ['publint', ['run', dir, '--strict']],
    ['attw', ['--pack', dir, '--profile', 'esm-only', '--format', 'ascii', '--no-emoji', ...exclude]],
  ]) {
    try {
      execFileSync(bin(tool), args, { stdio: 'pipe', encoding: 'utf8' });
      console.log(`ok   ${tool.padEnd(8)} ${name}`);
    } catch (error) {
      failed++;
      console.log(`FAIL ${tool.padEnd(8)} ${name}\n${error.stdout ?? ''}${error.stderr ?? ''}`);
    }
  }
}
if (failed > 0) {
  console.log(`${failed} package check(s) failed`);
  process.exit(1);
}
