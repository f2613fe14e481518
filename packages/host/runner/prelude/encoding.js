// UTF-8 TextEncoder/TextDecoder and atob/btoa: what V8 alone lacks and partner code and the guest engine use.

export class TextEncoder {
  get encoding() {
    return 'utf-8';
  }
  encode(input = '') {
    const text = String(input);
    const out = [];
    for (let i = 0; i < text.length; i++) {
      let code = text.charCodeAt(i);
      if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
        const next = text.charCodeAt(i + 1);
        if (next >= 0xdc00 && next <= 0xdfff) {
          code = 0x10000 + ((code - 0xd800) << 10) + (next - 0xdc00);
          i++;
        } else code = 0xfffd;
      } else if (code >= 0xd800 && code <= 0xdfff) code = 0xfffd;
      if (code < 0x80) out.push(code);
      else if (code < 0x800) out.push(0xc0 | (code >> 6), 0x80 | (code & 63));
      else if (code < 0x10000) out.push(0xe0 | (code >> 12), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63));
      else
        out.push(
          0xf0 | (code >> 18),
          0x80 | ((code >> 12) & 63),
          0x80 | ((code >> 6) & 63),
          0x80 | (code & 63),
        );
    }
    return new Uint8Array(out);
  }
}

export class TextDecoder {
  #fatal;
  constructor(label = 'utf-8', options = {}) {
    if (!/^utf-?8$/i.test(String(label).trim())) {
      throw new RangeError(`TextDecoder: only utf-8 is supported in the isolate, not "${label}"`);
    }
    this.#fatal = Boolean(options.fatal);
  }
  get encoding() {
    return 'utf-8';
  }
  decode(input) {
    if (input === undefined) return '';
    const bytes = ArrayBuffer.isView(input)
      ? new Uint8Array(input.buffer, input.byteOffset, input.byteLength)
      : new Uint8Array(input);
    let out = '';
    let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
    const bad = () => {
      if (this.#fatal) throw new TypeError('TextDecoder: the input is not valid utf-8');
      return 0xfffd;
    };
    const chunk = [];
    while (i < bytes.length) {
      const first = bytes[i++];
      let code;
      let extra = 0;
      if (first < 0x80) code = first;
      else if (first >= 0xc2 && first < 0xe0) [code, extra] = [first & 31, 1];
      else if (first >= 0xe0 && first < 0xf0) [code, extra] = [first & 15, 2];
      else if (first >= 0xf0 && first < 0xf5) [code, extra] = [first & 7, 3];
      else code = bad();
      for (let k = 0; k < extra; k++) {
        const next = bytes[i];
        if (next === undefined || (next & 0xc0) !== 0x80) {
          code = bad();
          extra = 0;
          break;
        }
        code = (code << 6) | (next & 63);
        i++;
      }
      chunk.push(code);
      if (chunk.length > 8192) out += String.fromCodePoint(...chunk.splice(0));
    }
    return out + String.fromCodePoint(...chunk);
  }
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

export function btoa(input) {
  const text = String(input);
  let out = '';
  for (let i = 0; i < text.length; i += 3) {
    const codes = [text.charCodeAt(i), text.charCodeAt(i + 1), text.charCodeAt(i + 2)];
    for (const code of codes) {
      if (code > 255)
        throw new DOMException('btoa: the string has characters outside Latin1', 'InvalidCharacterError');
    }
    const [a, b, c] = codes;
    const n = (a << 16) | ((b || 0) << 8) | (c || 0);
    out += ALPHABET[n >> 18] + ALPHABET[(n >> 12) & 63];
    out += Number.isNaN(b) ? '=' : ALPHABET[(n >> 6) & 63];
    out += Number.isNaN(c) ? '=' : ALPHABET[n & 63];
  }
  return out;
}

export function atob(input) {
  let text = String(input).replace(/[\t\n\f\r ]/g, '');
  if (text.length % 4 === 0) text = text.replace(/==?$/, '');
  if (text.length % 4 === 1 || /[^A-Za-z0-9+/]/.test(text)) {
    throw new DOMException('atob: the string is not correctly encoded', 'InvalidCharacterError');
  }
  let out = '';
  let bits = 0;
  let value = 0;
  for (const char of text) {
    value = (value << 6) | ALPHABET.indexOf(char);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += String.fromCharCode((value >> bits) & 255);
    }
  }
  return out;
}
