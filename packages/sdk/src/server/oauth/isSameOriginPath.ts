const MAX_LENGTH = 2048;

/**
 * True for a path on this host that a browser cannot read as another origin: exactly one leading
 * `/`, no backslash (browsers read `/\evil` as `//evil`), no whitespace or control characters
 * (browsers strip tabs and newlines, so `/\t/evil` would become `//evil`).
 * @example isSameOriginPath('/settings?tab=apps') // true; isSameOriginPath('//evil.example') // false
 */
export function isSameOriginPath(value: string): boolean {
  if (value.length === 0 || value.length > MAX_LENGTH) return false;
  if (!value.startsWith('/') || value.startsWith('//')) return false;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point.
  if (/[\\\s\u0000-\u001f\u007f]/.test(value)) return false;
  // Belt and braces: resolved against a placeholder origin it must stay on that origin.
  const base = 'https://return-path.invalid';
  try {
    return new URL(value, base).origin === base;
  } catch {
    return false;
  }
}
