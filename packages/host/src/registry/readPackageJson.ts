import { gunzipSync } from 'node:zlib';

const BLOCK = 512;

/** A tarball that is not a gzipped tar with a `package/package.json`, or whose package.json is not an object. */
export class TarballError extends Error {
  override readonly name = 'TarballError';
}

/**
 * The `package.json` of a package tarball as `npm pack` writes it (gzip over ustar, entries under
 * `package/`). A minimal reader: regular files, pax (`x`) and GNU long-name (`L`) headers for
 * paths; it stops at the first `package.json` one folder deep, as npm reads it.
 * @example const manifest = readPackageJson(await readFile('platform-sdk-0.4.0.tgz'));
 */
export function readPackageJson(tgz: Uint8Array): Record<string, unknown> {
  let tar: Buffer;
  try {
    tar = gunzipSync(tgz);
  } catch (error) {
    throw new TarballError('not a gzip file', { cause: error });
  }
  let offset = 0;
  let longName: string | undefined;
  while (offset + BLOCK <= tar.length) {
    const header = tar.subarray(offset, offset + BLOCK);
    if (header.every((byte) => byte === 0)) break;
    if (!checksumMatches(header)) throw new TarballError(`bad tar header checksum at byte ${offset}`);
    const size = octal(header.subarray(124, 136));
    const type = String.fromCharCode(header[156] ?? 0);
    const bodyStart = offset + BLOCK;
    const body = tar.subarray(bodyStart, bodyStart + size);
    if (body.length < size) throw new TarballError('truncated tar entry');
    offset = bodyStart + Math.ceil(size / BLOCK) * BLOCK;

    if (type === 'x') {
      longName = paxPath(body.toString('utf8')) ?? longName;
      continue;
    }
    if (type === 'L') {
      longName = cString(body);
      continue;
    }
    if (type === 'g') continue;
    const prefix = cString(header.subarray(345, 500));
    const name =
      longName ??
      (prefix === '' ? cString(header.subarray(0, 100)) : `${prefix}/${cString(header.subarray(0, 100))}`);
    longName = undefined;
    // npm reads the package.json one folder deep, whatever the folder is called (usually `package`).
    if ((type === '0' || type === '\0') && /^[^/]+\/package\.json$/.test(name.replace(/^\.\//, ''))) {
      let manifest: unknown;
      try {
        manifest = JSON.parse(body.toString('utf8'));
      } catch (error) {
        throw new TarballError(`${name} is not JSON`, { cause: error });
      }
      if (typeof manifest !== 'object' || manifest === null || Array.isArray(manifest)) {
        throw new TarballError(`${name} is not a JSON object`);
      }
      return manifest as Record<string, unknown>;
    }
  }
  throw new TarballError('no package/package.json in the tarball');
}

function cString(bytes: Uint8Array): string {
  const end = bytes.indexOf(0);
  return Buffer.from(end === -1 ? bytes : bytes.subarray(0, end)).toString('utf8');
}

function octal(bytes: Uint8Array): number {
  // Base-256 sizes (high bit set) are for files past 8 GiB: not a package.json.
  if (((bytes[0] ?? 0) & 0x80) !== 0) throw new TarballError('tar entry too large');
  const text = cString(bytes).trim();
  const value = text === '' ? 0 : Number.parseInt(text, 8);
  if (!Number.isSafeInteger(value) || value < 0) throw new TarballError(`bad tar size field "${text}"`);
  return value;
}

function checksumMatches(header: Uint8Array): boolean {
  let sum = 0;
  for (let index = 0; index < BLOCK; index++) {
    sum += index >= 148 && index < 156 ? 32 : (header[index] ?? 0);
  }
  return sum === octal(header.subarray(148, 156));
}

// Pax records: "<length> <key>=<value>\n".
function paxPath(records: string): string | undefined {
  let path: string | undefined;
  for (const line of records.split('\n')) {
    const match = /^\d+ path=(.*)$/.exec(line);
    if (match) path = match[1];
  }
  return path;
}
