/**
 * What each host sends its hooks and reads back (../shared/INTEGRATIONS.md): the events Tapedeck acts
 * on, the payload fields it needs, and the JSON each event answers with.
 */
import { AGENT_IDS, type AgentId } from '../../core/types.js';

/**
 * context: inject the context bundle; context-first: only on the first invocation (Antigravity has
 * no session-start event); tool: a permission decision; save: capture the session;
 * save-if-idle: capture only when nothing runs in the background; none: answer and exit.
 */
export type Action = 'context' | 'context-first' | 'tool' | 'save' | 'save-if-idle' | 'none';

const ACTIONS: Record<AgentId, Record<string, Action>> = {
  antigravity: { PreInvocation: 'context-first', PreToolUse: 'tool', Stop: 'save-if-idle' },
  'claude-code': { SessionStart: 'context', PreCompact: 'save', Stop: 'save', SessionEnd: 'save' },
  codex: { SessionStart: 'context', Stop: 'save' },
  'gemini-cli': { SessionStart: 'context', PreCompress: 'save', SessionEnd: 'save' },
};

/** The events `tapedeck install` wires up, per agent. */
export const HOOKED_EVENTS: Record<AgentId, string[]> = Object.fromEntries(
  AGENT_IDS.map((a) => [a, Object.keys(ACTIONS[a])]),
) as Record<AgentId, string[]>;

const squashName = (s: string) => s.toLowerCase().replace(/[-_\s]/g, '');

/** The host's spelling of an event (`session-start` → `SessionStart`), or the input as given. */
export function canonicalEvent(agent: AgentId, event: string): string {
  const want = squashName(event);
  return Object.keys(ACTIONS[agent]).find((e) => squashName(e) === want) ?? event;
}

export function actionOf(agent: AgentId, event: string): Action {
  return ACTIONS[agent][canonicalEvent(agent, event)] ?? 'none';
}

export interface HookInput {
  agent: AgentId;
  event: string;
  action: Action;
  sessionId?: string;
  transcriptPath?: string;
  /** The project: cwd, or the first workspace path (Antigravity). */
  cwd?: string;
  invocationNum?: number;
  /** Why a session started (Claude Code: startup | resume | clear | compact). */
  source?: string;
  fullyIdle?: boolean;
  toolName?: string;
  /** The tool call's `action` argument, when it has one (Antigravity JSON-encodes each value). */
  toolAction?: string;
  /** Why the payload could not be read, when it could not. */
  problem?: string;
}

const s = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v : undefined);

/** An argument's text: Antigravity sends `"\"add\""` (a JSON-encoded string), others `"add"`. */
function argText(v: unknown): string | undefined {
  const t = s(v);
  if (!t?.startsWith('"')) return t;
  try {
    return s(JSON.parse(t));
  } catch {
    return t;
  }
}

/** Read what the hook needs from the host's payload (snake_case or camelCase), with env fallbacks. */
export function readInput(
  agent: AgentId,
  event: string,
  stdin: string,
  env: Readonly<Record<string, string | undefined>>,
): HookInput {
  const canonical = canonicalEvent(agent, event);
  const input: HookInput = { agent, event: canonical, action: actionOf(agent, canonical) };
  let p: Record<string, unknown> = {};
  if (stdin.trim() === '') input.problem = 'empty stdin';
  else {
    try {
      const v = JSON.parse(stdin);
      if (v && typeof v === 'object' && !Array.isArray(v)) p = v;
      else input.problem = 'stdin is not a JSON object';
    } catch (e) {
      input.problem = `stdin is not JSON (${(e as Error).message})`;
    }
  }
  const workspaces = Array.isArray(p.workspacePaths) ? p.workspacePaths.map(s).filter(Boolean) : [];
  input.sessionId =
    s(p.session_id) ??
    s(p.sessionId) ??
    s(p.conversationId) ??
    (agent === 'antigravity' ? s(env.ANTIGRAVITY_CONVERSATION_ID) : undefined);
  input.transcriptPath = s(p.transcript_path) ?? s(p.transcriptPath);
  input.cwd = s(p.cwd) ?? (workspaces[0] as string | undefined);
  if (typeof p.invocationNum === 'number') input.invocationNum = p.invocationNum;
  input.source = s(p.source);
  if (typeof p.fullyIdle === 'boolean') input.fullyIdle = p.fullyIdle;
  const call = p.toolCall && typeof p.toolCall === 'object' ? (p.toolCall as Record<string, unknown>) : {};
  input.toolName = s(call.name) ?? s(p.tool_name);
  const args = [call.args, p.tool_input].find((a) => a && typeof a === 'object') as
    | Record<string, unknown>
    | undefined;
  input.toolAction = argText(args?.action);
  return input;
}

/**
 * The session starts again after the host compacted its context: SessionStart with source
 * `compact` (Claude Code; Codex since its compact lifecycle hooks). Gemini CLI's PreCompress is
 * advisory and its SessionStart has no compaction source; Antigravity gives hooks no compaction
 * signal.
 */
export const isAfterCompaction = (input: HookInput): boolean =>
  (input.agent === 'claude-code' || input.agent === 'codex') &&
  input.event === 'SessionStart' &&
  input.source === 'compact';

/** The answer that changes nothing: what the hook prints when it has nothing to add or fails. */
export function safeDefault(input: Pick<HookInput, 'action'>, reason = 'Tapedeck could not decide'): unknown {
  // Antigravity may read an empty answer as deny; asking the user is the host's own default.
  if (input.action === 'tool') return { decision: 'ask', reason };
  return {};
}

/** The context bundle as the host takes it. */
export function contextOutput(input: HookInput, text: string, notice?: string): unknown {
  if (input.agent === 'antigravity') return { injectSteps: [{ ephemeralMessage: text }] };
  return {
    hookSpecificOutput: { hookEventName: input.event, additionalContext: text },
    ...(notice && input.agent !== 'codex' ? { systemMessage: notice } : {}),
  };
}

/** A one-line notice for the user (hosts that show `systemMessage`: Claude Code, Gemini CLI). */
export function withNotice(input: HookInput, out: unknown, notice?: string): unknown {
  if (!notice || (input.agent !== 'claude-code' && input.agent !== 'gemini-cli')) return out;
  return { ...(out as object), systemMessage: notice };
}
