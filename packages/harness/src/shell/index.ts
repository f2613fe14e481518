// The stylesheets ship as files (`tsc` copies no CSS): the shell's own through this package's
// `./shell.css` export, which points into `src`, so the import resolves the same from source and
// from `dist`.
import '@platform/ui/styles.css';
import '@platform/harness/shell.css';

export { HarnessShell, type HarnessShellProps } from './HarnessShell.js';
export { type MountHarnessShellOptions, mountHarnessShell } from './mountHarnessShell.js';
