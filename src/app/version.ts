/** Tapedeck's version, kept in step with package.json (a test checks). */
export const VERSION = '0.1.0';
