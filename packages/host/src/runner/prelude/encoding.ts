// UTF-8 TextEncoder/TextDecoder (the WHATWG Encoding algorithms, utf-8 only): what V8 alone lacks
// and partner code and the guest engine use. Kept our own: fast-text-encoding 1.0.6, the usual
// small polyfill, drops lone surrogates, keeps the BOM, drops invalid bytes silently and has no
// `fatal` or `stream`; full polyfills carry every legacy encoding's tables.

const UTF8_LABELS = [
  'unicode-1-1-utf-8',
  'unicode11utf8',
  'unicode20utf8',
  'utf-8',
  'utf8',
  'x-unicode20utf8',
];

// One code point as UTF-8 bytes; lone surrogates become U+FFFD, as the spec's USVString conversion does.
function pushUtf8(out: number[], code: number): void {
  if (code < 0x80) out.push(code);
  else if (code < 0x800) out.push(0xc0 | (code >> 6), 0x80 | (code & 63));
  else if (code < 0x10000) out.push(0xe0 | (code >> 12), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63));
  else
    out.push(0xf0 | (code >> 18), 0x80 | ((code >> 12) & 63), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63));
}

function codePointAt(text: string, i: number): [code: number, units: number] {
  const code = text.charCodeAt(i);
  if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
    const next = text.charCodeAt(i + 1);
    if (next >= 0xdc00 && next <= 0xdfff) return [0x10000 + ((code - 0xd800) << 10) + (next - 0xdc00), 2];
  }
  return [code >= 0xd800 && code <= 0xdfff ? 0xfffd : code, 1];
}

export class TextEncoder {
  get encoding(): string {
    return 'utf-8';
  }
  encode(input: unknown = ''): Uint8Array {
    const text = String(input);
    const out: number[] = [];
    for (let i = 0; i < text.length; ) {
      const [code, units] = codePointAt(text, i);
      pushUtf8(out, code);
      i += units;
    }
    return new Uint8Array(out);
  }
  encodeInto(input: unknown, destination: Uint8Array): { read: number; written: number } {
    if (!(destination instanceof Uint8Array)) throw new TypeError('encodeInto needs a Uint8Array');
    const text = String(input);
    let read = 0;
    let written = 0;
    const bytes: number[] = [];
    while (read < text.length) {
      const [code, units] = codePointAt(text, read);
      bytes.length = 0;
      pushUtf8(bytes, code);
      if (written + bytes.length > destination.length) break;
      destination.set(bytes, written);
      written += bytes.length;
      read += units;
    }
    return { read, written };
  }
}

export class TextDecoder {
  #fatal: boolean;
  #ignoreBOM: boolean;
  // Decoder state across `stream: true` calls.
  #code = 0;
  #needed = 0;
  #seen = 0;
  #lower = 0x80;
  #upper = 0xbf;
  #atStart = true;
  constructor(label: unknown = 'utf-8', options: { fatal?: unknown; ignoreBOM?: unknown } | null = {}) {
    if (!UTF8_LABELS.includes(String(label).trim().toLowerCase())) {
      throw new RangeError(`TextDecoder: only utf-8 is supported in the isolate, not "${label}"`);
    }
    this.#fatal = Boolean(options?.fatal);
    this.#ignoreBOM = Boolean(options?.ignoreBOM);
  }
  get encoding(): string {
    return 'utf-8';
  }
  get fatal(): boolean {
    return this.#fatal;
  }
  get ignoreBOM(): boolean {
    return this.#ignoreBOM;
  }
  #reset(): void {
    this.#code = 0;
    this.#needed = 0;
    this.#seen = 0;
    this.#lower = 0x80;
    this.#upper = 0xbf;
  }
  decode(input?: unknown, options: { stream?: unknown } | null = {}): string {
    const stream = Boolean(options?.stream);
    let bytes: Uint8Array;
    if (input === undefined) bytes = new Uint8Array(0);
    else if (ArrayBuffer.isView(input))
      bytes = new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
    else if (
      input instanceof ArrayBuffer ||
      Object.prototype.toString.call(input) === '[object SharedArrayBuffer]'
    )
      bytes = new Uint8Array(input as ArrayBufferLike);
    else throw new TypeError('TextDecoder.decode needs an ArrayBuffer or an ArrayBufferView');
    const codes: number[] = [];
    let out = '';
    const error = () => {
      this.#reset();
      if (this.#fatal) {
        this.#atStart = true;
        throw new TypeError('The encoded data was not valid for encoding utf-8');
      }
      codes.push(0xfffd);
    };
    for (let i = 0; i < bytes.length; i++) {
      const byte = bytes[i]!;
      if (this.#needed === 0) {
        if (byte < 0x80) codes.push(byte);
        else if (byte >= 0xc2 && byte <= 0xdf) [this.#needed, this.#code] = [1, byte & 0x1f];
        else if (byte >= 0xe0 && byte <= 0xef) {
          if (byte === 0xe0) this.#lower = 0xa0;
          if (byte === 0xed) this.#upper = 0x9f;
          [this.#needed, this.#code] = [2, byte & 0xf];
        } else if (byte >= 0xf0 && byte <= 0xf4) {
          if (byte === 0xf0) this.#lower = 0x90;
          if (byte === 0xf4) this.#upper = 0x8f;
          [this.#needed, this.#code] = [3, byte & 0x7];
        } else error();
      } else if (byte < this.#lower || byte > this.#upper) {
        error();
        i--; // the byte starts over as the first of a new sequence
      } else {
        this.#lower = 0x80;
        this.#upper = 0xbf;
        this.#code = (this.#code << 6) | (byte & 0x3f);
        if (++this.#seen === this.#needed) {
          codes.push(this.#code);
          this.#reset();
        }
      }
      if (codes.length > 8192) out += String.fromCodePoint(...codes.splice(0));
    }
    if (!stream && this.#needed !== 0) error();
    out += String.fromCodePoint(...codes);
    if (this.#atStart && out.length > 0) {
      this.#atStart = false;
      if (!this.#ignoreBOM && out.charCodeAt(0) === 0xfeff) out = out.slice(1);
    }
    if (!stream) this.#atStart = true;
    return out;
  }
}
