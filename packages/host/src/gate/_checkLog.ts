/**
 * A check's log: what the gate did and what its child processes printed, keeping only the last
 * `maxBytes` (the start of a long install log matters less than how it ended).
 */
export class CheckLog {
  readonly #maxBytes: number;
  #chunks: Buffer[] = [];
  #size = 0;
  #dropped = 0;

  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  /** Appends a line the gate writes itself. */
  line(text: string): void {
    this.write(`${text}\n`);
  }

  write(chunk: string | Buffer): void {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    this.#chunks.push(bytes);
    this.#size += bytes.length;
    if (this.#size > 2 * this.#maxBytes) this.#trim();
  }

  text(): string {
    this.#trim();
    const body = Buffer.concat(this.#chunks).toString('utf8');
    return this.#dropped === 0 ? body : `[${this.#dropped} bytes before this were left out]\n${body}`;
  }

  #trim(): void {
    if (this.#size <= this.#maxBytes) return;
    const all = Buffer.concat(this.#chunks);
    const cut = all.length - this.#maxBytes;
    this.#dropped += cut;
    this.#chunks = [all.subarray(cut)];
    this.#size = this.#maxBytes;
  }
}

/** A sink that keeps the first `maxBytes` of a child's output whole (for parsing) and passes everything on to `log`. */
export function headAndLog(
  log: CheckLog,
  maxBytes = 4 * 1024 * 1024,
): { write(chunk: Buffer): void; text(): string } {
  const chunks: Buffer[] = [];
  let size = 0;
  return {
    write(chunk) {
      log.write(chunk);
      if (size >= maxBytes) return;
      chunks.push(chunk);
      size += chunk.length;
    },
    text: () => Buffer.concat(chunks).toString('utf8'),
  };
}
