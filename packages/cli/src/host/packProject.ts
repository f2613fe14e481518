import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { create } from 'tar';
import { CliError } from '../cli/CliError.js';
import { MANIFEST_FILE } from '../project/readManifest.js';
import { readGitignore } from './_gitignore.js';

/** A project packed for upload: a gzipped tar held in memory. */
export interface PackedProject {
  readonly archive: Buffer;
  /** Every file in the archive, POSIX paths relative to the project root, sorted. */
  readonly files: readonly string[];
  /** Files left out for a reason worth telling (symbolic links, an `.npmrc` holding credentials). */
  readonly omitted: readonly { readonly path: string; readonly reason: string }[];
}

/** The lockfile the host installs from. */
export const LOCKFILE = 'package-lock.json';

// Never packed, at any depth.
const ANY_DEPTH_FOLDERS = new Set(['node_modules', '.git']);
// Never packed at the root: build output, coverage, and the CLI's local state (secrets included).
const ROOT_FOLDERS = new Set(['dist', 'coverage', '.platform']);
// Packed even when .gitignore lists them: the host cannot build without them.
const REQUIRED = new Set([MANIFEST_FILE, 'package.json', LOCKFILE]);
const NPMRC_CREDENTIAL = /(^|[:\s])(_authToken|_auth|_password|username|password|certfile|keyfile)\s*=/m;

/**
 * Packs a project's own files into a gzipped tar in memory: no `node_modules`, `.git`, `dist`,
 * `coverage` or `.platform/`, no `.env*` file, nothing the root `.gitignore` ignores, no symbolic
 * link. Requires `platform.json` and `package-lock.json`.
 * @example const { archive, files } = await packProject('/work/acme-notes');
 */
export async function packProject(projectDir: string): Promise<PackedProject> {
  if (!existsSync(join(projectDir, MANIFEST_FILE))) {
    throw new CliError('project_not_found', `No ${MANIFEST_FILE} in ${projectDir}.`, {
      hint: 'Run the command in a project folder (the one holding platform.json), or pass --cwd <dir>.',
    });
  }
  if (!existsSync(join(projectDir, LOCKFILE))) {
    throw new CliError(
      'lockfile_missing',
      `No ${LOCKFILE} in ${projectDir}: the host installs the project's dependencies from it.`,
      { hint: `Run \`npm install\` in the project to write ${LOCKFILE}, then run the command again.` },
    );
  }
  const ignored = readGitignore(projectDir);
  const files: string[] = [];
  const omitted: { path: string; reason: string }[] = [];

  const walk = (relativeDir: string) => {
    const entries = readdirSync(join(projectDir, relativeDir), { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
    for (const entry of entries) {
      const path = relativeDir === '' ? entry.name : `${relativeDir}/${entry.name}`;
      const atRoot = relativeDir === '';
      if (entry.isDirectory()) {
        if (ANY_DEPTH_FOLDERS.has(entry.name) || (atRoot && ROOT_FOLDERS.has(entry.name))) continue;
        if (ignored(path, true)) continue;
        walk(path);
      } else if (entry.isSymbolicLink()) {
        if (ANY_DEPTH_FOLDERS.has(entry.name) || (atRoot && ROOT_FOLDERS.has(entry.name))) continue;
        if (!ignored(path, false)) omitted.push({ path, reason: 'a symbolic link' });
      } else if (entry.isFile()) {
        if (entry.name.startsWith('.env')) continue;
        if (ignored(path, false) && !(atRoot && REQUIRED.has(entry.name))) continue;
        if (entry.name === '.npmrc' && NPMRC_CREDENTIAL.test(readFileSync(join(projectDir, path), 'utf8'))) {
          omitted.push({ path, reason: 'it holds registry credentials' });
          continue;
        }
        files.push(path);
      }
    }
  };
  walk('');

  const chunks: Buffer[] = [];
  for await (const chunk of create({ gzip: true, cwd: projectDir, portable: true }, files)) {
    chunks.push(chunk as Buffer);
  }
  return { archive: Buffer.concat(chunks), files, omitted };
}
