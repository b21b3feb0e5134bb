/** How a Codex tool call is named, what it acted on, and whether its output reports a failure. */

import { compactArgs } from '../../core/format.js';
import { asString, isRecord, squash, tryParseJson } from '../../core/text.js';
import { editText, isBinaryText } from '../edit-text.js';

/** Normalized description of one Codex tool call. */
export interface ToolCallInfo {
  /** Tool name as Codex writes it, lowercased (`shell`, `apply_patch`, `update_plan`, `local_shell`). */
  tool: string;
  /** The command line, or the file(s) a patch touches, when there is one. */
  target?: string;
  /**
   * `${tool} ${target}`, or the tool plus its compact arguments (≤ 200 chars); a patch adds the
   * lines it changes below (see edit-text.ts).
   */
  text: string;
}

const MAX_TEXT = 200;
const PATCH_FILE = /^\*\*\* (?:Update|Add|Delete) File: (.+)$|^\*\*\* Move to: (.+)$/gm;

/** Files named by an apply_patch body (`*** Update File:`, `*** Add File:`, …), or undefined. */
export function patchFiles(patch: string): string | undefined {
  const files = new Set<string>();
  for (const m of patch.matchAll(PATCH_FILE)) {
    const f = (m[1] ?? m[2])?.trim();
    if (f) files.add(f);
  }
  return files.size > 0 ? [...files].join(', ') : undefined;
}

/**
 * The changed lines of an apply_patch body: file headers (`*** Update File: a.ts`, `*** Move to:`),
 * `@@` headers that name a function, `-` / `+` lines. Context lines, `*** Begin/End Patch` and
 * `*** End of File` are not the change.
 */
export function patchLines(patch: string): string[] {
  if (isBinaryText(patch)) return ['[binary content left out]'];
  const out: string[] = [];
  for (const line of patch.replace(/\r\n?/g, '\n').split('\n')) {
    if (/^\*\*\* (?:Begin Patch|End Patch|End of File)\s*$/.test(line)) continue;
    if (line.startsWith('*** ') || line.startsWith('-') || line.startsWith('+')) out.push(line);
    else if (line.startsWith('@@') && line.slice(2).trim() !== '') out.push(line);
  }
  return out;
}

/** The apply_patch body inside a call's arguments (raw input, `{input}`, argv, or a shell heredoc). */
function patchOf(args: unknown): string | undefined {
  const isPatch = (v: unknown): v is string => typeof v === 'string' && patchFiles(v) !== undefined;
  if (isPatch(args)) return args;
  if (!isRecord(args)) return undefined;
  for (const key of ['input', 'patch', 'command', 'cmd'] as const)
    if (isPatch(args[key])) return args[key] as string;
  const argv = Array.isArray(args.command) ? args.command : undefined;
  return argv?.find(isPatch);
}

const SHELL = /(^|\/)(ba|z|da|k)?sh$/;

/** Quote an argv element only when a reader would need it to see the word boundary. */
function quoteArg(a: string): string {
  return /^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`;
}

/**
 * The command line of an argv: `["bash","-lc","npm test"]` is `npm test`; `["apply_patch", patch]`
 * is the patched files; anything else is the argv joined with shell quoting.
 */
export function shellTarget(argv: unknown[]): string | undefined {
  const args = argv.filter((a): a is string => typeof a === 'string');
  if (args.length === 0) return undefined;
  if ((args[0] === 'apply_patch' || args[0] === 'applypatch') && args[1])
    return patchFiles(args[1]) ?? args[0];
  if (args.length >= 3 && SHELL.test(args[0]!) && /^-\w*c$/.test(args[1]!)) {
    const script = args.slice(2).join(' ');
    // `apply_patch <<'EOF' … EOF` run through the shell still edits files, not a command worth indexing.
    return (script.includes('*** Begin Patch') ? patchFiles(script) : undefined) ?? script;
  }
  return args.map(quoteArg).join(' ');
}

function targetOf(args: unknown): string | undefined {
  // custom_tool_call input (freeform apply_patch) is the raw patch text.
  if (typeof args === 'string') return patchFiles(args);
  if (!isRecord(args)) return undefined;
  if (Array.isArray(args.command)) return shellTarget(args.command);
  for (const key of ['command', 'cmd'] as const) {
    const v = asString(args[key]);
    // A heredoc'd apply_patch run as one command string edits files, like the argv form.
    if (v?.trim()) return (v.includes('*** Begin Patch') ? patchFiles(v) : undefined) ?? v.trim();
  }
  for (const key of ['input', 'patch'] as const) {
    const v = asString(args[key]);
    if (v) {
      const files = patchFiles(v);
      if (files) return files;
    }
  }
  for (const key of ['path', 'file_path'] as const) {
    const v = asString(args[key]);
    if (v?.trim()) return v.trim();
  }
  return undefined;
}

/**
 * Describe a call. `args` is the decoded `arguments` object of a function_call, the raw `input`
 * string of a custom_tool_call, or the `action` of a local_shell_call.
 */
export function describeCodexCall(name: string, args: unknown): ToolCallInfo {
  const tool = name.toLowerCase();
  const target = targetOf(args);
  const patch = patchOf(args);
  if (target && patch) return { tool, target, text: editText(`${tool} ${target}`, patchLines(patch)) };
  if (target) return { tool, target, text: `${tool} ${target}` };
  return { tool, text: squash(`${tool} ${compactArgs(args ?? {}, MAX_TEXT - tool.length - 1)}`) };
}

/** Decode a function_call `arguments` JSON string; keep the raw string when it is not JSON. */
export function decodeArguments(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  const parsed = tryParseJson(raw);
  return parsed.ok ? parsed.value : raw;
}

/** A tool's output text and whether it reports a failure. */
export interface ToolOutput {
  text: string;
  failed: boolean;
}

function contentText(items: unknown[]): string {
  return items
    .map((i) => (typeof i === 'string' ? i : isRecord(i) ? (asString(i.text) ?? '') : ''))
    .filter((t) => t !== '')
    .join('\n');
}

/**
 * Read a function_call_output / custom_tool_call_output `output`. Shell tools write a JSON string
 * `{output, metadata: {exit_code}}`; newer shell tools write plain text starting `Exit code: N`;
 * some outputs are content arrays or `{content, success}` objects.
 */
export function readToolOutput(output: unknown): ToolOutput {
  if (typeof output === 'string') {
    if (output.trimStart().startsWith('{')) {
      const parsed = tryParseJson(output);
      if (parsed.ok && isRecord(parsed.value) && typeof parsed.value.output === 'string') {
        const meta = parsed.value.metadata;
        const exit = isRecord(meta) ? meta.exit_code : undefined;
        return { text: parsed.value.output, failed: typeof exit === 'number' && exit !== 0 };
      }
    }
    const exit = /^Exit code: (-?\d+)/.exec(output);
    return { text: output, failed: !!exit && exit[1] !== '0' };
  }
  if (Array.isArray(output)) return { text: contentText(output), failed: false };
  if (isRecord(output)) {
    const c = output.content;
    const text =
      typeof c === 'string' ? c : Array.isArray(c) ? contentText(c) : (asString(output.output) ?? '');
    return { text, failed: output.success === false };
  }
  return { text: '', failed: false };
}
