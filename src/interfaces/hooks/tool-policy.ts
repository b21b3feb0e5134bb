/**
 * Antigravity's PreToolUse answer for Tapedeck's own MCP tools (`mcp_tapedeck_<tool>`): reads run
 * without asking; what destroys or removes always asks; the other writes run without asking only
 * when the user's latest message asked to remember or save, and ask otherwise. A tool (or action)
 * this table does not know asks. The lean tools do several things, so they are classed per
 * `action` argument; a tool's annotations carry its most dangerous action, and
 * test/hooks-policy.test.ts checks the table against the MCP server's readOnlyHint /
 * destructiveHint annotations.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { asksToSave, userRequestText } from '../../core/save-intent.js';

export type ToolClass = 'read' | 'write' | 'destructive';

/** Per `action` argument; `''` is the action taken when the call names none. */
export type ActionClasses = Record<string, ToolClass>;

export const TOOL_CLASSES: Record<string, ToolClass | ActionClasses> = {
  recall: 'read',
  reanchor: 'read',
  read: 'read',
  context: 'read',
  remember: {
    '': 'write',
    add: 'write',
    supersede: 'write',
    update: 'write',
    restore: 'write',
    rule: 'write',
    forget: 'destructive',
  },
  skills: { find: 'read', load: 'read', outcome: 'write', propose: 'write' },
  threads: { handoff: 'write', save: 'write' },
  fs: {
    '': 'read',
    ls: 'read',
    cat: 'read',
    find: 'read',
    grep: 'read',
    recall: 'read',
    write: 'destructive',
    rm: 'destructive',
  },
  memory_search: 'read',
  memory_get: 'read',
  rules_resolve: 'read',
  rules_list: 'read',
  skills_find: 'read',
  skills_load: 'read',
  skills_list: 'read',
  wiki_read: 'read',
  wiki_search: 'read',
  working_memory: 'read',
  context_bundle: 'read',
  memory_add: 'write',
  memory_update: 'write',
  memory_supersede: 'write',
  memory_restore: 'write',
  rules_add: 'write',
  rules_update: 'write',
  skills_propose: 'write',
  skills_outcome: 'write',
  skills_manage: 'write',
  wiki_write: 'write',
  thread_save: 'write',
  thread_handoff: 'write',
  working_memory_refresh: 'write',
  memory_forget: 'destructive',
  rules_remove: 'destructive',
};

const PREFIX = 'mcp_tapedeck_';

export interface Decision {
  decision: 'allow' | 'ask';
  reason: string;
}

const TAIL_BYTES = 256 * 1024;

/** The latest user message in an Antigravity transcript (its last 256 KiB). */
export function lastUserMessage(transcriptPath: string): string | undefined {
  const fd = openSync(transcriptPath, 'r');
  let text: string;
  try {
    const size = fstatSync(fd).size;
    const len = Math.min(size, TAIL_BYTES);
    const buf = Buffer.alloc(len);
    readSync(fd, buf, 0, len, size - len);
    text = buf.toString('utf8');
  } finally {
    closeSync(fd);
  }
  const lines = text.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i].trim();
    if (!line.startsWith('{')) continue;
    try {
      const step = JSON.parse(line);
      if (step?.source === 'USER_EXPLICIT' || step?.type === 'USER_INPUT')
        return userRequestText(String(step.content ?? ''));
    } catch {
      // a half-written or cut line: keep looking
    }
  }
  return undefined;
}

/** The class of one call: the tool's, or its action's (undefined when the table does not know it). */
export function classOf(tool: string, action: string | undefined): ToolClass | undefined {
  const entry = TOOL_CLASSES[tool];
  return typeof entry === 'string' || entry === undefined ? entry : entry[action ?? ''];
}

export function decideTool(
  toolName: string | undefined,
  transcriptPath: string | undefined,
  action?: string,
): Decision {
  if (!toolName?.startsWith(PREFIX))
    return { decision: 'ask', reason: `${toolName ?? 'a tool'} is not Tapedeck's` };
  const name = toolName.slice(PREFIX.length);
  const tool = action && typeof TOOL_CLASSES[name] === 'object' ? `${name} ${action}` : name;
  const cls = classOf(name, action);
  if (cls === 'read') return { decision: 'allow', reason: `Tapedeck ${tool} only reads` };
  if (cls === 'destructive')
    return { decision: 'ask', reason: `Tapedeck ${tool} removes or overwrites data` };
  if (!cls) return { decision: 'ask', reason: `Tapedeck ${tool} is not a known tool` };
  let said: string | undefined;
  try {
    said = transcriptPath ? lastUserMessage(transcriptPath) : undefined;
  } catch {
    said = undefined;
  }
  if (said && asksToSave(said)) return { decision: 'allow', reason: `the user asked to remember or save` };
  return { decision: 'ask', reason: `Tapedeck ${tool} writes, and the user did not ask to save` };
}
