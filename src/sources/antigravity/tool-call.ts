/**
 * Antigravity tool calls: `tool_calls[{name, id?, args | arguments}]` on a PLANNER_RESPONSE.
 *
 * Every arg value is itself JSON-encoded (`"TargetFile": "\"src/db.py\""`, `"WaitMsBeforeAsync":
 * "5000"`) and keys are PascalCase. Some builds write `arguments` (an object or one JSON string)
 * instead of `args`. Values that do not decode are kept as written.
 */
import { asString, isRecord, squash, tryParseJson } from '../../core/text.js';
import { contentLines, editText, searchTarget } from '../edit-text.js';

/** A tool call reduced to what steps need. */
export interface ToolCallInfo {
  /** Tool name as the agent writes it, lowercased (`run_command`, `view_file`). */
  tool: string;
  /** The file path or command line it acted on. */
  target?: string;
  /**
   * `${tool} ${target}`, or the tool plus its args on one line; `write_to_file` adds the new
   * file's lines below (its result only says "Created file … with N lines").
   */
  text: string;
  /** Decoded `Cwd` arg, when the call has one (the only workspace hint in the format). */
  cwd?: string;
}

/** Arg keys naming what a call acts on, most specific first. */
const TARGET_KEYS = ['TargetFile', 'AbsolutePath', 'File', 'SearchPath', 'DirectoryPath', 'CommandLine'];

/** UI labels the model writes about its own call; they are not arguments. */
const LABEL_KEYS = new Set(['toolAction', 'toolSummary']);

const MAX_ARGS_TEXT = 200;

/** One arg value, JSON-decoded when it is a JSON encoding, else as written. */
export function decodeArgValue(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const parsed = tryParseJson(value);
  return parsed.ok ? parsed.value : value;
}

/** The call's args with every value decoded; {} when it has none or they are not an object. */
export function decodeArgs(call: Record<string, unknown>): Record<string, unknown> {
  let raw: unknown = call.args ?? call.arguments;
  if (typeof raw === 'string') {
    const parsed = tryParseJson(raw);
    raw = parsed.ok ? parsed.value : undefined;
  }
  if (!isRecord(raw)) return {};
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw)) out[k] = decodeArgValue(v);
  return out;
}

/** Describe one entry of `tool_calls`; undefined when it has no usable name. */
export function describeToolCall(call: unknown): ToolCallInfo | undefined {
  if (!isRecord(call)) return undefined;
  const name = asString(call.name) ?? (isRecord(call.function) ? asString(call.function.name) : undefined);
  if (!name?.trim()) return undefined;
  // Some builds namespace tool names (`default_api:view_file`); the namespace says nothing.
  const tool = name
    .trim()
    .replace(/^default_api:/, '')
    .toLowerCase();
  const args = decodeArgs(call);
  // A search (grep_search, find_by_name, codebase_search) acts on its pattern within a folder.
  const target =
    searchTarget(
      args.Query ?? args.Pattern,
      args.SearchPath ?? args.SearchDirectory ?? args.DirectoryPath ?? args.TargetDirectories,
      args.Includes,
    ) ?? TARGET_KEYS.map((k) => args[k]).find((v): v is string => typeof v === 'string' && v !== '');
  const cwd = typeof args.Cwd === 'string' && args.Cwd !== '' ? args.Cwd : undefined;
  let text = target ? `${tool} ${target}` : withArgs(tool, args);
  // replace_file_content results carry the diff themselves; a new file's content is only here.
  if (target && typeof args.CodeContent === 'string') text = editText(text, contentLines(args.CodeContent));
  return { tool, target, text, cwd };
}

function withArgs(tool: string, args: Record<string, unknown>): string {
  const parts = Object.entries(args)
    .filter(([k]) => !LABEL_KEYS.has(k))
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
  if (parts.length === 0) return tool;
  let rendered = squash(parts.join(' '));
  if (rendered.length > MAX_ARGS_TEXT) rendered = `${rendered.slice(0, MAX_ARGS_TEXT - 1)}…`;
  return `${tool} ${rendered}`;
}
