/**
 * Line matching for `fs grep` under a time budget. A JavaScript regex cannot be interrupted from
 * the outside, and a pattern like `(a+)+$` can backtrack for hours on one line, so matching runs
 * inside a `vm` context whose `timeout` stops even a regex mid-match; what was found before the
 * stop is kept in the context and returned with `timedOut`.
 */
import vm from 'node:vm';
import { invalidInput } from '../../core/errors.js';

export const MAX_PATTERN = 1000;
/** Longest text of one line that is matched and returned (longer lines are cut for both). */
export const MAX_LINE = 2000;

export interface LineMatch {
  /** Index of the file in the batch. */
  file: number;
  /** 1-based line number. */
  line: number;
  text: string;
}

// Compiled on first use: most processes that load this module never grep (and the bundle loads
// node:vm lazily).
let script: vm.Script | undefined;
const matchLoop = (): vm.Script =>
  (script ??= new vm.Script(`
  for (; state.file < files.length; state.file++, state.line = 0) {
    const lines = files[state.file];
    for (; state.line < lines.length; state.line++) {
      re.lastIndex = 0;
      if (re.test(lines[state.line])) {
        out.push([state.file, state.line + 1]);
        if (out.length >= max) { state.full = true; break; }
      }
    }
    if (state.full) break;
  }
`));

/** Compile the pattern (JavaScript syntax), case-insensitive when asked; INVALID_INPUT when it is not a regex. */
export function compilePattern(pattern: string, ignoreCase: boolean): RegExp {
  if (typeof pattern !== 'string' || pattern === '') throw invalidInput('The grep pattern is empty');
  if (pattern.length > MAX_PATTERN) throw invalidInput(`The grep pattern is over ${MAX_PATTERN} characters`);
  try {
    return new RegExp(pattern, ignoreCase ? 'iu' : 'u');
  } catch {
    try {
      return new RegExp(pattern, ignoreCase ? 'i' : '');
    } catch (e) {
      throw invalidInput(`The grep pattern is not a valid regular expression: ${(e as Error).message}`);
    }
  }
}

/**
 * Match every line of a batch of files, at most `max` matches, stopping after `timeoutMs`.
 * Returns the matches found and whether the time ran out (then `stoppedAt` says where).
 */
export function matchLines(
  re: RegExp,
  files: string[][],
  max: number,
  timeoutMs: number,
): {
  matches: LineMatch[];
  timedOut: boolean;
  full: boolean;
  stoppedAt: { file: number; line: number } | null;
} {
  const cut = files.map((lines) => lines.map((l) => (l.length > MAX_LINE ? l.slice(0, MAX_LINE) : l)));
  const context = vm.createContext({
    re: new RegExp(re.source, re.flags),
    files: cut,
    out: [] as [number, number][],
    max,
    state: { file: 0, line: 0, full: false },
  });
  let timedOut = false;
  try {
    matchLoop().runInContext(context, { timeout: Math.max(1, Math.floor(timeoutMs)) });
  } catch (e) {
    if ((e as { code?: string }).code !== 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw e;
    timedOut = true;
  }
  const out = context.out as [number, number][];
  const state = context.state as { file: number; line: number; full: boolean };
  return {
    matches: out.map(([file, line]) => ({ file, line, text: cut[file][line - 1] })),
    timedOut,
    full: state.full,
    stoppedAt: timedOut ? { file: state.file, line: state.line + 1 } : null,
  };
}
