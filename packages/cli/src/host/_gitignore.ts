import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface Rule {
  readonly negated: boolean;
  readonly directoryOnly: boolean;
  readonly pattern: RegExp;
}

/** Tells whether a project path (POSIX, relative to the root) is ignored. */
export type IgnoreMatcher = (path: string, isDirectory: boolean) => boolean;

/**
 * The project's root `.gitignore` as a matcher: the common forms (names at any depth, anchored
 * paths, trailing `/` for folders, `*`, `?`, `**`, `!` negation, the last matching line winning).
 * Nested `.gitignore` files are not read. Walk top-down and skip ignored folders, as git does.
 */
export function readGitignore(projectDir: string): IgnoreMatcher {
  const path = join(projectDir, '.gitignore');
  if (!existsSync(path)) return () => false;
  const rules = readFileSync(path, 'utf8')
    .split(/\r?\n/)
    .map(parseLine)
    .filter((rule) => rule !== undefined);
  return (relative, isDirectory) => {
    let ignored = false;
    for (const rule of rules) {
      if (rule.directoryOnly && !isDirectory) continue;
      if (rule.pattern.test(relative)) ignored = !rule.negated;
    }
    return ignored;
  };
}

function parseLine(raw: string): Rule | undefined {
  let line = raw.replace(/(?<!\\)\s+$/, '');
  if (line === '' || line.startsWith('#')) return undefined;
  const negated = line.startsWith('!');
  if (negated) line = line.slice(1);
  if (line.startsWith('\\')) line = line.slice(1);
  const directoryOnly = line.endsWith('/');
  if (directoryOnly) line = line.slice(0, -1);
  if (line === '') return undefined;
  // A slash at the start or in the middle anchors the pattern to the root; otherwise it names a
  // file or folder at any depth.
  const anchored = line.includes('/');
  if (line.startsWith('/')) line = line.slice(1);
  const body = toRegExpSource(line);
  return { negated, directoryOnly, pattern: new RegExp(anchored ? `^${body}$` : `(?:^|/)${body}$`) };
}

function toRegExpSource(glob: string): string {
  let source = '';
  for (let index = 0; index < glob.length; index++) {
    const char = glob[index] as string;
    if (glob.startsWith('**/', index)) {
      source += '(?:.*/)?';
      index += 2;
    } else if (glob.startsWith('/**', index) && index + 3 === glob.length) {
      source += '/.*';
      index += 2;
    } else if (glob.startsWith('**', index)) {
      source += '.*';
      index += 1;
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else if (char === '[') {
      const end = glob.indexOf(']', index + 1);
      if (end === -1) source += '\\[';
      else {
        source += `[${glob
          .slice(index + 1, end)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\')}]`;
        index = end;
      }
    } else if (char === '\\' && index + 1 < glob.length) {
      source += escapeChar(glob[index + 1] as string);
      index += 1;
    } else source += escapeChar(char);
  }
  return source;
}

function escapeChar(char: string): string {
  return /[.+^${}()|[\]\\/]/.test(char) ? `\\${char}` : char;
}
