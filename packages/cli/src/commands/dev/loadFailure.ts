// Owns what `platform dev` says when harness.config.ts (or a definition it imports) fails to load:
// the heading, the file at fault, the message, the findings and the fix. The terminal prints it with
// renderLoadFailure and the page's overlay shows pageLoadFailure's fields, so both say the same.
import { isAbsolute, relative, sep } from 'node:path';
import { createStyle, type Style } from '../../cli/terminal.js';
import { type Finding, renderFinding } from '../validate/finding.js';

/** The project's harness entry, next to platform.json. */
export const HARNESS_CONFIG_FILE = 'harness.config.ts';

/** A failed load, redacted, as the terminal and the page both show it. */
export interface LoadFailure {
  /** `harness.config.ts failed to load`. */
  readonly heading: string;
  /** The project file at fault (relative, with `:line:column` when known); the config by default. */
  readonly file: string;
  /** What is wrong, as the error said it. */
  readonly message: string;
  /** The findings of `platform validate` on the project. */
  readonly findings: readonly Finding[];
  /** An imperative sentence: what to do. */
  readonly fix: string;
}

/** What the page's overlay receives: the failure with its findings as `platform validate` prints them, unstyled. */
export interface PageLoadFailure {
  readonly heading: string;
  readonly file: string;
  readonly message: string;
  readonly findings: readonly string[];
  readonly fix: string;
}

/** What {@link describeLoadFailure} reads. */
export interface LoadFailureInput {
  readonly thrown: unknown;
  readonly projectDir: string;
  readonly findings?: readonly Finding[];
  /**
   * Removes secrets from a piece of text (the project's `redactText` of `@platform/sdk/runtime`):
   * messages may quote config values, such as a live URL with a token in its query.
   */
  readonly redact: (text: string) => string;
}

/**
 * A failed load of `harness.config.ts`, redacted: the file at fault is the error's own (a syntax
 * error's location), else the first project file of its stack, else `harness.config.ts`.
 * @example describeLoadFailure({ thrown, projectDir, redact: redactText }).file // 'src/acme/integration.ts'
 */
export function describeLoadFailure(input: LoadFailureInput): LoadFailure {
  const file = faultyFile(input.thrown, input.projectDir);
  const redactFinding = (item: Finding): Finding => ({
    ...item,
    message: input.redact(item.message),
    ...(item.hint === undefined ? {} : { hint: input.redact(item.hint) }),
  });
  const findings = (input.findings ?? []).map(redactFinding);
  const errors = findings.filter((item) => item.severity === 'error').length;
  const what = errors > 0 ? `the ${errors === 1 ? 'error' : 'errors'} listed` : 'the error';
  return {
    heading: `${HARNESS_CONFIG_FILE} failed to load`,
    file,
    message: input.redact(describeThrown(input.thrown)),
    findings,
    fix: `Fix ${what} in ${file.replace(/:\d+:\d+$/, '')} and save it: the harness loads ${HARNESS_CONFIG_FILE} again, and the page returns by itself.`,
  };
}

/**
 * The failure as the terminal prints it: the heading and message, the file, the findings (or
 * `findingsText`, the whole `platform validate` report, when given) and the fix.
 */
export function renderLoadFailure(failure: LoadFailure, style: Style, findingsText?: string): string {
  const findings =
    findingsText ?? failure.findings.flatMap((item) => [...renderFinding(item, style), '']).join('\n');
  return [
    `${style.red(`${failure.heading}:`)} ${failure.message}`,
    `  ${style.dim('in')} ${failure.file}`,
    ...(findings === '' ? [] : [findings.replace(/\n$/, '')]),
    `The harness API answers 503 and the pages show this error until it is fixed. ${failure.fix}`,
    '',
  ].join('\n');
}

const PLAIN = createStyle(false);

/** The failure as the page's overlay shows it (JSON), the findings unstyled as the terminal prints them. */
export function pageLoadFailure(failure: LoadFailure): PageLoadFailure {
  return {
    heading: failure.heading,
    file: failure.file,
    message: failure.message,
    findings: failure.findings.map((item) => renderFinding(item, PLAIN).join('\n')),
    fix: failure.fix,
  };
}

/** An error's text: its message, after its name unless that is plain `Error` or already said. */
export function describeThrown(thrown: unknown): string {
  if (!(thrown instanceof Error)) return String(thrown);
  return thrown.name === 'Error' || thrown.message.startsWith(thrown.name)
    ? thrown.message
    : `${thrown.name}: ${thrown.message}`;
}

const STACK_FILE = /(?:file:\/\/)?((?:[a-zA-Z]:)?[\\/][^\s():]+?)(?::(\d+):(\d+))?(?=\)|\s|$)/g;

function faultyFile(thrown: unknown, projectDir: string): string {
  const error = (typeof thrown === 'object' && thrown !== null ? thrown : {}) as {
    loc?: { file?: unknown; line?: unknown; column?: unknown };
    id?: unknown;
    stack?: unknown;
  };
  const located = inProject(error.loc?.file ?? error.id, projectDir);
  if (located !== undefined) {
    const { line, column } = error.loc ?? {};
    return typeof line === 'number' && typeof column === 'number' ? `${located}:${line}:${column}` : located;
  }
  for (const match of String(error.stack ?? '').matchAll(STACK_FILE)) {
    const file = inProject(match[1], projectDir);
    // No line: a stack's positions are those of the code as transformed, not as written.
    if (file !== undefined) return file;
  }
  return HARNESS_CONFIG_FILE;
}

function inProject(path: unknown, projectDir: string): string | undefined {
  if (typeof path !== 'string') return undefined;
  const bare = path.split('?')[0] ?? '';
  if (!isAbsolute(bare)) return undefined;
  const inside = relative(projectDir, bare);
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) return undefined;
  const parts = inside.split(sep);
  if (parts.some((part) => part === 'node_modules' || part === '.platform')) return undefined;
  return parts.join('/');
}
