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
  /\b(?:exit|Exit|EXIT)(?:ed)?(?: with)? (?:code|Code|CODE|status|Status|STATUS):? [1-9]\d*\b/,
  /\bnon-zero exit status [1-9]/,
];

/** Lines that report that nothing went wrong, though they mention errors (matched ignoring case). */
const NONE_PATTERNS: readonly RegExp[] = [
  /\b(?:0|no|zero)\s+(?:errors?|failures?|failed|failing|warnings?)\b/,
  /\b(?:errors?|failures?|failed|fail)\s*[:=]?\s*(?:0|none|\(none\))\s*$/,
  /^\s*(?:stderr|error):\s*(?:\(none\)|\(empty\))?\s*$/,
];

const WARNING_PATTERNS: readonly RegExp[] = [
  /\b(?:warning|WARNING|Warning|WARN|DeprecationWarning)\b(?::|\s)/,
  /^npm WARN\b/,
  /\b(?:timed out|[Tt]imeout|TIMEOUT|TIMED OUT)\b/,
];

/** Each list as one expression: one test a line instead of one per pattern. */
const any = (patterns: readonly RegExp[], flags = '') =>
  new RegExp(patterns.map((p) => `(?:${p.source})`).join('|'), flags);
const ERROR = any(ERROR_PATTERNS);
const NONE = any(NONE_PATTERNS, 'i');
const WARNING = any(WARNING_PATTERNS);

/**
 * A cheap first look, run over every tool output the index keeps: each pattern above needs one of
 * these words (or an upper-case errno-like word), and most lines have none. Word-anchored and
 * case-blind on purpose — that form is several times faster in V8 than a list of fragments — so
 * it lets through more than it should; the patterns above decide.
 */
const MAYBE_WORDS =
  /\b(?:errors?|failed|failures?|failing|fail|fatal|exception|panic|traceback|warnings?|warn|denied|timeout|timed|exit|exited|not ok|segmentation|dumped|not found|no such|critical|err|err_pnpm_\w+|eai_\w+)\b|(?:Error|Exception|Warning)\b|[✖✗×]/i;
const MAYBE_ERRNO = /\bE[A-Z]{3,}\b/;
const maybe = (line: string) => MAYBE_WORDS.test(line) || MAYBE_ERRNO.test(line);

/** How a line of tool output reads: an error, a warning, or neither (undefined). */
export function classifyLine(line: string): LineClass | undefined {
  if (!maybe(line) || TAPEDECK_MARKER.test(line)) return undefined;
  if (NONE.test(line)) return undefined;
  if (ERROR.test(line)) return 'error';
  if (WARNING.test(line)) return 'warning';
  return undefined;
}

/** True when a line of tool output reports an error. */
export const isErrorLine = (line: string): boolean => classifyLine(line) === 'error';

/**
 * The error and warning lines of a long text, in order, at most `max`. One pass of the first-look
 * expressions over the whole text finds the few lines worth classifying, instead of a test per
 * line (this runs on every tool output the index keeps).
 */
export function flaggedLines(text: string, max: number): string[] {
  const starts = new Set<number>();
  for (const re of [new RegExp(MAYBE_WORDS.source, 'gi'), new RegExp(MAYBE_ERRNO.source, 'g')])
    for (const m of text.matchAll(re)) starts.add(text.lastIndexOf('\n', m.index) + 1);
  const out: string[] = [];
  for (const start of [...starts].sort((a, b) => a - b)) {
    const end = text.indexOf('\n', start);
    const line = text.slice(start, end === -1 ? undefined : end);
    if (classifyLine(line)) out.push(line);
    if (out.length >= max) break;
  }
  return out;
}
