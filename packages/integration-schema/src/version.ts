/** The version of this schema package; the CLI compares it with a project's to detect schema skew. */
export const SCHEMA_VERSION = '0.5.0';
