/**
 * The frame components of one `platform.json` integration entry: the optional `tile` (drawn on
 * the marketplace tile) and `activationForm` (shown after Activate), each the path of a module in
 * the project whose default export is a React component. The host renders each in the widgets'
 * sandboxed frame. One rule for `platform validate`, the host's install and the publish gate.
 */

/** The frame component fields of a `platform.json` integration entry. */
export const FRAME_COMPONENT_FIELDS = ['tile', 'activationForm'] as const;

/** One frame component field. */
export type FrameComponentField = (typeof FRAME_COMPONENT_FIELDS)[number];

/** The module extensions a frame component may have (what the browser bundle compiles). */
export const FRAME_COMPONENT_EXTENSIONS = ['.tsx', '.ts', '.jsx', '.js'] as const;

/** The frame component fields, checked: each relative to the project root, normalised. */
export type FrameComponentPaths = { readonly [K in FrameComponentField]?: string };

/** One bad frame component field: what is wrong and an imperative `hint`. */
export interface FrameComponentProblem {
  readonly field: FrameComponentField;
  readonly message: string;
  readonly hint: string;
}

const EXAMPLE: Record<FrameComponentField, string> = {
  tile: 'src/acme-notes/Tile.tsx',
  activationForm: 'src/acme-notes/ActivationForm.tsx',
};

/**
 * Checks the `tile` and `activationForm` fields of one `platform.json` integration entry (other
 * keys are ignored): each a relative path inside the project to a `.tsx`, `.ts`, `.jsx` or `.js`
 * module, and, through `exists` (the caller's view of the project's files, given the normalised
 * path), a file that exists. Returns the good paths and a problem per bad field.
 * @example checkFrameComponentFields({ tile: './src/Tile.tsx' }, () => true) // { components: { tile: 'src/Tile.tsx' }, problems: [] }
 */
export function checkFrameComponentFields(
  entry: Readonly<Record<string, unknown>>,
  exists: (path: string) => boolean,
): { components: FrameComponentPaths; problems: FrameComponentProblem[] } {
  const components: { -readonly [K in FrameComponentField]?: string } = {};
  const problems: FrameComponentProblem[] = [];
  for (const field of FRAME_COMPONENT_FIELDS) {
    const value = entry[field];
    if (value === undefined) continue;
    const path = typeof value === 'string' ? frameComponentPath(value) : undefined;
    if (path === undefined) {
      problems.push({
        field,
        message:
          typeof value === 'string'
            ? `"${field}" is "${value}"; it must be a relative path inside the project to a module (${FRAME_COMPONENT_EXTENSIONS.join(', ')})`
            : `"${field}" must be a string (got ${typeof value})`,
        hint: `Set "${field}" to the project's module whose default export is the component, such as "${EXAMPLE[field]}".`,
      });
    } else if (!exists(path)) {
      problems.push({
        field,
        message: `"${field}" names ${path}, but the project has no such file`,
        hint: `Create ${path} with the component as its default export, or fix "${field}".`,
      });
    } else {
      components[field] = path;
    }
  }
  return { components, problems };
}

/**
 * A component path normalised to a path relative to the project root, or undefined when it is
 * absolute, a URL, leaves the project (`..`), or is not a `.tsx`, `.ts`, `.jsx` or `.js` module.
 * @example frameComponentPath('./src/Tile.tsx') // 'src/Tile.tsx'
 */
export function frameComponentPath(path: string): string | undefined {
  if (path === '' || path.includes('\\') || path.includes('\0')) return undefined;
  if (path.startsWith('/') || /^[a-z][a-z0-9+.-]*:/i.test(path)) return undefined;
  const parts = path.split('/').filter((part) => part !== '' && part !== '.');
  if (parts.length === 0 || parts.includes('..')) return undefined;
  const normal = parts.join('/');
  if (/\.d\.ts$/i.test(normal)) return undefined;
  return FRAME_COMPONENT_EXTENSIONS.some((ext) => normal.endsWith(ext)) ? normal : undefined;
}
