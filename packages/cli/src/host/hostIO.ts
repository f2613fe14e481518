import { createInterface } from 'node:readline';

/** A stream the host commands write to: stderr, which never carries the command's result. */
export interface HostOutput {
  readonly isTTY?: boolean | undefined;
  write(text: string): unknown;
}

/** A stream the host commands read from: stdin (a token, an authenticator code). */
export interface HostInput extends NodeJS.ReadableStream {
  readonly isTTY?: boolean | undefined;
}

/**
 * What `login`, `publish` and `status` need beyond the command context: a device code, a prompt,
 * an upload bar and live check lines must reach the person while the command runs, so these
 * commands write them to stderr themselves (stdout still carries only the result).
 */
export interface HostIO {
  readonly stdin: HostInput;
  readonly stderr: HostOutput;
}

/** The process's own stdin and stderr. */
export function processIO(): HostIO {
  // process.stdin is made on first use: only a command that reads it opens it.
  return {
    get stdin() {
      return process.stdin;
    },
    stderr: process.stderr,
  };
}

/** True when a question can be asked: stdin and stderr are both a terminal. */
export function canPrompt(io: HostIO): boolean {
  return io.stdin.isTTY === true && io.stderr.isTTY === true;
}

/** Asks one question on the terminal (the question on stderr) and resolves with the answer, trimmed. */
export function ask(io: HostIO, question: string): Promise<string> {
  io.stderr.write(question);
  // Not terminal mode: the terminal echoes what is typed, and stderr need not be a full stream.
  const lines = createInterface({ input: io.stdin, terminal: false });
  return new Promise((resolve) => {
    let answered = false;
    const finish = (answer: string) => {
      if (answered) return;
      answered = true;
      lines.close();
      resolve(answer.trim());
    };
    lines.once('line', finish);
    lines.once('close', () => finish(''));
  });
}

/** Everything on stdin (a token piped in with `--token-stdin`), trimmed. */
export async function readAll(input: HostInput): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of input) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8').trim();
}
