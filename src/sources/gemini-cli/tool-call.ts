/**
 * Gemini CLI tool calls: `toolCalls[{id, name, args, status, result, resultDisplay?, timestamp}]`
 * on a `gemini` message. The call and its outcome live in the same record, so pairing is by the
 * record itself; a later rewrite of the message (same id) fills in the result.
 */

import { toIso } from '../../core/format.js';
import { asString, isRecord, squash } from '../../core/text.js';
import { contentLines, editText, replacementLines, searchTarget } from '../edit-text.js';
import type { StepDraft } from './step-draft.js';

/**
 * Arg keys naming what a call acts on, most specific first: file tools (`file_path`, older
 * `absolute_path`), the shell's `command` (before `dir_path`/`directory`, which only say where it
 * ran), then directories and search patterns.
 */
const TARGET_KEYS = ['file_path', 'absolute_path', 'command', 'path', 'dir_path', 'directory', 'pattern'];

/** Statuses of a call that failed; their result text gets `[error] `. */
const FAILED = new Set(['error', 'cancelled']);

const MAX_ARGS_TEXT = 200;

/** Arg keys naming one file; a call with one of them acts on that file, whatever else it has. */
const FILE_KEYS = new Set(['file_path', 'absolute_path']);

/**
 * What the call acted on: a search's pattern with where it looked (`search_file_content`,
 * `grep_search`, `glob`: `pattern dir_path include`, as Claude Code's Grep reads), else the first
 * target arg, or `paths` (read_many_files) joined.
 */
export function toolTarget(args: Record<string, unknown>): string | undefined {
  if (!Object.keys(args).some((k) => FILE_KEYS.has(k) || k === 'command')) {
    const search = searchTarget(args.pattern, args.dir_path ?? args.path ?? args.directory, args.include);
    if (search) return search;
  }
  for (const key of TARGET_KEYS) {
    const v = args[key];
    if (typeof v === 'string' && v.trim() !== '') return v;
  }
  if (Array.isArray(args.paths)) {
    const paths = args.paths.filter((p): p is string => typeof p === 'string' && p !== '');
    if (paths.length > 0) return paths.join(', ');
  }
  return undefined;
}

/**
 * Output of a finished call. `result` holds what the model saw: functionResponse parts
 * (`response.output`, or `response.error` for a failure) and sometimes plain text parts;
 * `resultDisplay` (what the terminal showed: a string, or `{fileDiff, …}` for edits) is the
 * fallback when `result` is empty.
 */
export function toolResultText(call: Record<string, unknown>): { text: string; failed: boolean } {
  const pieces: string[] = [];
  let failed = false;
  const result = call.result;
  const parts = Array.isArray(result) ? result : result === undefined || result === null ? [] : [result];
  for (const part of parts) {
    if (typeof part === 'string') pieces.push(part);
    else if (isRecord(part) && isRecord(part.functionResponse)) {
      const response = part.functionResponse.response;
      if (!isRecord(response)) continue;
      if (typeof response.output === 'string') pieces.push(response.output);
      else if (typeof response.error === 'string') {
        pieces.push(response.error);
        failed = true;
      } else if (Object.keys(response).length > 0) pieces.push(JSON.stringify(response));
    } else if (isRecord(part) && typeof part.text === 'string') pieces.push(part.text);
  }
  let text = pieces.join('\n').trim();
  if (!text) text = displayText(call.resultDisplay);
  return { text, failed };
}

function displayText(display: unknown): string {
  if (typeof display === 'string') return display.trim();
  if (isRecord(display) && typeof display.fileDiff === 'string') return display.fileDiff.trim();
  return isRecord(display) || Array.isArray(display) ? JSON.stringify(display) : '';
}

/** The tool_call step of one record and, once it has an outcome, its tool_result step. */
export function toolCallDrafts(raw: unknown, messageTs: string | undefined): StepDraft[] {
  if (!isRecord(raw)) return [];
  const name = asString(raw.name)?.trim();
  if (!name) return [];
  const tool = name.toLowerCase();
  const args = isRecord(raw.args) ? raw.args : {};
  const target = toolTarget(args);
  const call: StepDraft = { role: 'assistant', kind: 'tool_call', text: callText(tool, target, args), tool };
  if (target) call.target = target;
  if (messageTs) call.timestamp = messageTs;

  const status = asString(raw.status) ?? '';
  const { text, failed } = toolResultText(raw);
  const isFailure = failed || FAILED.has(status);
  // Still scheduled / awaiting approval / executing: the rewrite that finishes it adds the result.
  if (!text && !isFailure) return [call];
  const result: StepDraft = {
    role: 'tool',
    kind: 'tool_result',
    text: isFailure ? `[error] ${text || status || 'failed'}` : text,
    tool,
  };
  if (target) result.target = target;
  const ts = toIso(raw.timestamp) ?? messageTs;
  if (ts) result.timestamp = ts;
  return [call, result];
}

/**
 * The lines an edit call changes: `replace` (and older `edit`) carry `old_string` / `new_string`,
 * `write_file` the whole new `content`. Undefined for any other call.
 */
export function editLines(args: Record<string, unknown>): string[] | undefined {
  if (typeof args.new_string === 'string')
    return replacementLines(typeof args.old_string === 'string' ? args.old_string : '', args.new_string);
  if (typeof args.content === 'string' && typeof (args.file_path ?? args.absolute_path) === 'string')
    return contentLines(args.content);
  return undefined;
}

function callText(tool: string, target: string | undefined, args: Record<string, unknown>): string {
  const edit = editLines(args);
  if (target && edit) return editText(`${tool} ${target}`, edit);
  if (target) return `${tool} ${target}`;
  const parts = Object.entries(args).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
  if (parts.length === 0) return tool;
  let rendered = squash(parts.join(' '));
  if (rendered.length > MAX_ARGS_TEXT) rendered = `${rendered.slice(0, MAX_ARGS_TEXT - 1)}…`;
  return `${tool} ${rendered}`;
}
