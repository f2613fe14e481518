/**
 * The specifiers a widget frame's import map resolves to the host's one copy: partner browser
 * bundles leave them as bare imports (the host's `BROWSER_SHARED_MODULES`, the same list; a test
 * checks they agree).
 */
export const SHARED_MODULES = [
  'react',
  'react/jsx-runtime',
  'react-dom',
  'react-dom/client',
  '@tanstack/react-query',
  '@platform/ui',
  '@platform/sdk/hooks',
  'next-intl',
] as const;

/** Where the build writes {@link FrameManifest}, in `dist/app`. */
export const FRAME_MANIFEST = 'frame-manifest.json';

/** The frame runtime's assets (names under `/web/assets/`), as the build wrote them. */
export interface FrameManifest {
  /** Each shared specifier's module. */
  readonly imports: Readonly<Record<string, string>>;
  /** The frame bootstrap module. */
  readonly bootstrap: string;
  /** `@platform/ui/styles.css` and the frame's own styles. */
  readonly styles: readonly string[];
}
