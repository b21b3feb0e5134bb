/**
 * The one classifier of lines in tool output: is a line an error, a warning, or neither? Used
 * where tool output is reduced for the index (its error and warning lines are kept) and where a
 * handoff looks for what is still broken.
 *
 * The patterns follow what tools really print, and are case-sensitive where case carries the
 * meaning: `TypeError:`/`AssertionError [ERR_ASSERTION]:`/`ValueError:` (error classes are
 * capitalized), `ECONNRESET`/`ENOENT` (errno codes are upper case — so "else" or "every" never
 * count), `npm ERR!`, Python's `Traceback (most recent call last):`, tsc/rustc/git's lower-case
 * `error:`/`error TS2307`/`error[E0308]`, test runners (`not ok 3`, `FAIL`, `2 failed`, `✖ fail 1`)
 * and non-zero exit codes. Summaries that report none (`0 errors`, `fail 0`) are not errors, and
 * neither are Tapedeck's own truncation markers (`[… 812 more characters of output; error lines:]`).
 */

export type LineClass = 'error' | 'warning';

/** Tapedeck's own notes where it shortened a text (core/text.ts, ingest's tool-output reduction). */
const TAPEDECK_MARKER = /^\s*\[… (?:truncated )?\d+ more characters\b/;

const ERROR_PATTERNS: readonly RegExp[] = [
  // Exception classes: TypeError: …, AssertionError [ERR_ASSERTION]: …, java.io.IOException, KeyError: 'x'
  /\b[A-Z][A-Za-z0-9]*(?:Error|Exception)\b(?:\s*\[[A-Z_]+\])?(?::|$)/,
  /\b(?:[a-z]+\.)+[A-Z][A-Za-z0-9]*(?:Error|Exception)\b/,
  // errno-style codes as Node and libc print them
  /\bE(?:CONNRESET|CONNREFUSED|CONNABORTED|ADDRINUSE|ADDRNOTAVAIL|ACCES|PERM|NOENT|NOTDIR|ISDIR|EXIST|PIPE|TIMEDOUT|NOTFOUND|AI_AGAIN|HOSTUNREACH|NETUNREACH|MFILE|NOSPC|ROFS|BUSY|NOTEMPTY|INVAL)\b/,
  /^Traceback \(most recent call last\):/,
  /^npm (?:ERR!|error)\s/,
  /\bERR_PNPM_\w+|^error Command failed\b/,
  // compilers, git, cargo: "error: …", "error TS2307: …", "error[E0308]: …", "file.ts(4,2): error …"
  /(?:^|[\s:])error(?::|\s+TS\d+|\[E\d+\])/,
  /\b(?:ERROR|FATAL|CRITICAL)\b/,
  /^\s*(?:Error|Fatal|fatal|panic):/,
  /\bSegmentation fault\b|\bcore dumped\b/,
  /\bcommand not found\b|\bNo such file or directory\b|\bPermission denied\b/,
  // test runners
  /^\s*not ok \d+/,
  /^\s*(?:FAIL|FAILED)\b/,
  /\b[1-9]\d*\s+(?:failed|failing|failures?|errors?)\b/,
  /^\s*[✖✗×]\s*fail(?:ed|s)?\s+[1-9]/,
  /^\s*#\s*fail\s+[1-9]/,
  // exit codes
  /\bexit(?:ed)?(?: with)? (?:code|status):? [1-9]\d*\b/i,
  /\bnon-zero exit status [1-9]/,
];

/** Lines that report that nothing went wrong, though they mention errors. */
const NONE_PATTERNS: readonly RegExp[] = [
  /\b(?:0|no|zero)\s+(?:errors?|failures?|failed|failing|warnings?)\b/i,
  /\b(?:errors?|failures?|failed|fail)\s*[:=]?\s*(?:0|none|\(none\))\s*$/i,
  /^\s*(?:stderr|error):\s*(?:\(none\)|\(empty\))?\s*$/i,
];

const WARNING_PATTERNS: readonly RegExp[] = [
  /\b(?:warning|WARNING|Warning|WARN|DeprecationWarning)\b(?::|\s)/,
  /^npm WARN\b/,
  /\btimed out\b|\btimeout\b/i,
];

/** How a line of tool output reads: an error, a warning, or neither (undefined). */
export function classifyLine(line: string): LineClass | undefined {
  if (line.trim() === '' || TAPEDECK_MARKER.test(line)) return undefined;
  if (NONE_PATTERNS.some((p) => p.test(line))) return undefined;
  if (ERROR_PATTERNS.some((p) => p.test(line))) return 'error';
  if (WARNING_PATTERNS.some((p) => p.test(line))) return 'warning';
  return undefined;
}

/** True when a line of tool output reports an error. */
export const isErrorLine = (line: string): boolean => classifyLine(line) === 'error';
