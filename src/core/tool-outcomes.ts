/**
 * Reading tool results without an LLM: did a call fail, and what did it act on (so a later
 * success of the same command or on the same file can be seen to settle an earlier failure).
 *
 * Parsers mark failed results with a leading `[error]`. Command output is also scanned for error
 * lines (core/error-lines.ts: "error TS2307", "TypeError:", "1 failed", "not ok 17"); file contents
 * (read, grep, fetch) are not, since source code mentions errors all the time.
 */
import { isErrorLine } from './error-lines.js';
import { squash } from './text.js';

const COMMAND_TOOL = /(?:bash|shell|command|exec|terminal|^run)/i;
/** Lines where a tool echoes the command it ran (Gemini CLI: `Command: …`, `Directory: …`). */
const ECHO_LINE = /^\s*(?:command|directory|cwd):/i;
/** Words in front of a command that say nothing about which command it is. */
const PREFIX_WORDS = /^(?:time|sudo|env|nohup|command|exec)$/;
/** Commands that only move output around. */
const PLUMBING = /^(?:cd|echo|tail|head|grep|cat|true|false|wc|sort|tee|xargs)$/;
/** Second words that need a third to name the command (`npm run build` is not `npm run lint`). */
const SUBCOMMAND_RUNNERS = /^(?:run|exec|x|dlx|run-script)$/;

export const isCommandTool = (tool: string | undefined): boolean => !!tool && COMMAND_TOOL.test(tool);

/** The first error line of a result (or its first line when it is marked `[error]`), if it failed. */
export function failureLine(text: string, tool: string | undefined): string | undefined {
  const marked = text.startsWith('[error]');
  if (!marked && !isCommandTool(tool)) return undefined;
  const lines = (marked ? text.slice('[error]'.length) : text).split('\n');
  const errorLine = lines.find((l) => isErrorLine(l) && !ECHO_LINE.test(l));
  if (errorLine !== undefined) return squash(errorLine);
  if (!marked) return undefined;
  return squash(lines.find((l) => l.trim() !== '' && !ECHO_LINE.test(l)) ?? '') || 'failed';
}

/** The commands of a shell line, each named by its first words: `npm test`, `npx tsc`, `npm run build`. */
export function commandHeads(command: string): string[] {
  const heads = new Set<string>();
  for (const part of command.split(/&&|\|\||[;|\n]/)) {
    const words = part
      .trim()
      .split(/\s+/)
      .filter((w) => w && !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w) && !/^[0-9]*[<>]/.test(w));
    while (words.length > 1 && PREFIX_WORDS.test(words[0])) words.shift();
    if (words.length === 0 || PLUMBING.test(words[0])) continue;
    const significant = words.filter((w, i) => i === 0 || !w.startsWith('-'));
    const n = significant.length > 2 && SUBCOMMAND_RUNNERS.test(significant[1]) ? 3 : 2;
    heads.add(significant.slice(0, n).join(' '));
  }
  return [...heads];
}

/**
 * What a result is about, as comparable keys: the command heads for a command tool, else the
 * target (a file) or, without one, the tool name.
 */
export function outcomeKeys(tool: string | undefined, target: string | undefined): string[] {
  if (isCommandTool(tool) && target) {
    const heads = commandHeads(target);
    if (heads.length) return heads.map((h) => `cmd:${h}`);
  }
  if (target) return target.split(/,\s+/).map((t) => `target:${t.trim()}`);
  return [`tool:${tool ?? '?'}`];
}
