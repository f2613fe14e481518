import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type CheckLog, headAndLog } from './_checkLog.js';
import { childEnv } from './_childEnv.js';
import { finding } from './_finding.js';
import { runChild, seconds } from './_runChild.js';
import type { Sandbox } from './_sandbox.js';
import { hostToolchain } from './_toolchain.js';
import type { CheckName, Finding } from './GateResult.js';

/** One `tsc --pretty false` diagnostic. */
interface Diagnostic {
  readonly file?: string;
  readonly line?: number;
  readonly column?: number;
  readonly code: string;
  readonly message: string;
}

/** What a typecheck run gave: findings, the keys of its errors, and whether tsc could run at all. */
export interface TypecheckOutcome {
  readonly findings: Finding[];
  readonly keys: Set<string>;
  /** Why tsc was not run (no tsconfig.json). */
  readonly unavailable?: string;
}

/** What `checks/typecheck-host-rules` adds on tsc's command line (it overrides the project's tsconfig). */
const HOST_RULES_FLAGS = ['--strict', '--noUncheckedIndexedAccess'];

const HOST_RULES_HINT = 'Add "noUncheckedIndexedAccess": true to compilerOptions and fix what it reports.';
const MAX_FINDINGS = 100;

interface TypecheckRun {
  readonly projectDir: string;
  readonly workDir: string;
  readonly timeoutMs: number;
  readonly log: CheckLog;
  readonly sandbox: Sandbox;
  readonly signal?: AbortSignal | undefined;
}

/**
 * `checks/typecheck`: `tsc --noEmit -p tsconfig.json` with the host's own TypeScript (whatever the
 * project installed is not run), one finding per error (code `TSxxxx`).
 */
export async function typecheckProject(run: TypecheckRun): Promise<TypecheckOutcome> {
  const unavailable = missingPrerequisite(run.projectDir);
  if (unavailable !== undefined) return { ...unavailable, keys: new Set() };
  const { diagnostics, failure } = await runTsc(run, [], 'checks/typecheck');
  const findings = diagnostics.slice(0, MAX_FINDINGS).map((diagnostic) =>
    finding('checks/typecheck', diagnostic.code, diagnostic.message, {
      file: diagnostic.file,
      line: diagnostic.line,
      hint: `Fix the type error${diagnostic.file === undefined ? '' : ` at ${diagnostic.file}:${diagnostic.line}`}; \`npx tsc --noEmit\` shows it too.`,
    }),
  );
  return {
    findings: withOverflow(findings, diagnostics.length, failure),
    keys: new Set(diagnostics.map(keyOf)),
  };
}

/**
 * `checks/typecheck-host-rules`: the project compiled under `strict` and `noUncheckedIndexedAccess`
 * (given on tsc's command line: the host writes nothing into the project); only errors
 * `checks/typecheck` did not report.
 */
export async function typecheckHostRules(run: TypecheckRun, known: ReadonlySet<string>): Promise<Finding[]> {
  const { diagnostics, failure } = await runTsc(run, HOST_RULES_FLAGS, 'checks/typecheck-host-rules');
  const added = diagnostics.filter((diagnostic) => !known.has(keyOf(diagnostic)));
  const findings = added.slice(0, MAX_FINDINGS).map((diagnostic) =>
    finding(
      'checks/typecheck-host-rules',
      'project.host-compiler-rules',
      `${diagnostic.code}: ${diagnostic.message}`,
      {
        file: diagnostic.file,
        line: diagnostic.line,
        hint: HOST_RULES_HINT,
      },
    ),
  );
  return withOverflow(findings, added.length, failure);
}

function missingPrerequisite(projectDir: string): Omit<TypecheckOutcome, 'keys'> | undefined {
  if (!existsSync(join(projectDir, 'tsconfig.json'))) {
    return {
      unavailable: 'the project has no tsconfig.json',
      findings: [
        finding('checks/typecheck', 'project.no-tsconfig', 'the project has no tsconfig.json at its root', {
          file: 'tsconfig.json',
          hint: 'Add the tsconfig.json `platform init` writes, and publish again.',
        }),
      ],
    };
  }
  return undefined;
}

async function runTsc(
  run: TypecheckRun,
  flags: readonly string[],
  check: CheckName,
): Promise<{ diagnostics: Diagnostic[]; failure: Finding | undefined }> {
  const { typescript } = await hostToolchain();
  const args = ['--noEmit', '-p', 'tsconfig.json', ...flags, '--pretty', 'false'];
  run.log.line(run.sandbox.note);
  run.log.line(`typescript: the host's ${typescript.version}`);
  run.log.line(`$ tsc ${args.join(' ')}`);
  const output = headAndLog(run.log);
  const wrapped = run.sandbox.wrap(process.execPath, [typescript.tsc, ...args], await childEnv(run.workDir));
  const outcome = await runChild({
    ...wrapped,
    cwd: run.projectDir,
    timeoutMs: run.timeoutMs,
    log: output,
    signal: run.signal,
  });
  const diagnostics = parseTscOutput(output.text());
  if (outcome.timedOut) {
    return {
      diagnostics,
      failure: finding(
        check,
        'typecheck.timeout',
        `tsc did not finish within ${seconds(run.timeoutMs)}, the gate's limit for ${check}`,
        {
          hint: 'Narrow "include" in tsconfig.json to the project\'s sources.',
        },
      ),
    };
  }
  if (outcome.code !== 0 && diagnostics.length === 0) {
    return {
      diagnostics,
      failure: finding(
        check,
        'typecheck.failed',
        `tsc ended with exit code ${outcome.code ?? 'none'} without reporting an error`,
        {
          hint: `Run \`npx tsc --noEmit -p tsconfig.json ${flags.join(' ')}\` in the project and fix what stops it.`,
        },
      ),
    };
  }
  return { diagnostics, failure: undefined };
}

/** `file(line,col): error TSxxxx: message` (continuation lines indented), and file-less `error TSxxxx: message`. */
export function parseTscOutput(output: string): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  let last: { -readonly [K in keyof Diagnostic]: Diagnostic[K] } | undefined;
  for (const line of output.split('\n')) {
    const located = /^(.+?)\((\d+),(\d+)\): error (TS\d+): (.*)$/.exec(line);
    const global = located === null ? /^error (TS\d+): (.*)$/.exec(line) : null;
    if (located !== null) {
      last = {
        file: located[1]!,
        line: Number(located[2]),
        column: Number(located[3]),
        code: located[4]!,
        message: located[5]!,
      };
      diagnostics.push(last);
    } else if (global !== null) {
      last = { code: global[1]!, message: global[2]! };
      diagnostics.push(last);
    } else if (last !== undefined && /^\s+\S/.test(line)) {
      last.message += ` ${line.trim()}`;
    } else {
      last = undefined;
    }
  }
  return diagnostics;
}

const keyOf = (diagnostic: Diagnostic) =>
  `${diagnostic.file ?? ''}:${diagnostic.line ?? 0}:${diagnostic.column ?? 0}:${diagnostic.code}`;

function withOverflow(findings: Finding[], total: number, failure: Finding | undefined): Finding[] {
  const all = [...findings];
  if (total > findings.length) {
    const first = findings[0];
    if (first !== undefined) {
      all.push(
        finding(
          first.check,
          first.code,
          `${total - findings.length} more errors like these (see the check log)`,
          {
            hint: 'Run tsc in the project to see them all.',
          },
        ),
      );
    }
  }
  if (failure !== undefined) all.push(failure);
  return all;
}
