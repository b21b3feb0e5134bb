/** How a Claude Code tool call is named and what it acted on. */

import { compactArgs } from '../../core/format.js';
import { asString, isRecord, squash } from '../../core/text.js';

/** Normalized description of one `tool_use` block. */
export interface ToolCallInfo {
  /** Tool name as Claude Code writes it, lowercased (`bash`, `read`, `mcp__github__get_issue`). */
  tool: string;
  /** File path, command line, pattern or URL the call acted on, when the tool has one. */
  target?: string;
  /** `${tool} ${target}`, or the tool plus its compact arguments (≤ 200 chars). */
  text: string;
}

const MAX_TEXT = 200;

/** Which input field names the thing a tool acts on; order matters (first present wins). */
const TARGET_FIELDS: Record<string, readonly string[]> = {
  Bash: ['command'],
  Read: ['file_path'],
  Edit: ['file_path'],
  Write: ['file_path'],
  MultiEdit: ['file_path'],
  // The real NotebookEdit input is `notebook_path`; older builds used `file_path`.
  NotebookEdit: ['notebook_path', 'file_path'],
  NotebookRead: ['notebook_path', 'file_path'],
  WebFetch: ['url'],
  WebSearch: ['query'],
  Task: ['description'],
  Agent: ['description'],
  LS: ['path'],
};

/** Describe a `tool_use {name, input}` block. Never throws on odd input. */
export function describeToolCall(name: string, input: unknown): ToolCallInfo {
  const tool = name.toLowerCase();
  const args = isRecord(input) ? input : {};
  let target: string | undefined;
  if (name === 'Grep' || name === 'Glob') {
    // A search acts on a pattern within a path; render it like the command line would read.
    const parts = [asString(args.pattern), asString(args.path)].filter((p): p is string => !!p?.trim());
    target = parts.length > 0 ? parts.join(' ') : undefined;
  } else {
    for (const field of TARGET_FIELDS[name] ?? []) {
      const v = asString(args[field]);
      if (v?.trim()) {
        target = v.trim();
        break;
      }
    }
  }
  if (target) return { tool, target, text: `${tool} ${target}` };
  const rendered = compactArgs(input ?? {}, MAX_TEXT - tool.length - 1);
  return { tool, text: squash(`${tool} ${rendered}`) };
}
