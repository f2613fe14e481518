// Lets TypeScript (and a consumer's type checker) resolve `import '@platform/harness/shell.css'`: a
// stylesheet exports nothing.
export {};
