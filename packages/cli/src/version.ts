/** This CLI's version (kept equal to package.json's by a test); the scaffold pins `^CLI_VERSION`. */
export const CLI_VERSION = '0.4.0';
