/** Normalized domain types shared by every layer. Pure data: no I/O. */

export const AGENT_IDS = ['antigravity', 'claude-code', 'codex', 'gemini-cli'] as const;
export type AgentId = (typeof AGENT_IDS)[number];

export function isAgentId(value: string): value is AgentId {
  return (AGENT_IDS as readonly string[]).includes(value);
}

/**
 * The agent recorded for a saved thread whose client app is none of AGENT_IDS (a thread saved
 * from another tool); the app's own name is kept with the saved thread.
 */
export const OTHER_AGENT = 'other';
export type ThreadAgent = AgentId | typeof OTHER_AGENT;

export type Role = 'user' | 'assistant' | 'tool' | 'system';
export type StepKind = 'prompt' | 'response' | 'reasoning' | 'tool_call' | 'tool_result' | 'summary';

/** Where a step came from: the transcript file and its 1-based line. */
export interface SourceRef {
  path: string;
  line: number;
}

/** One normalized step of a thread. `step` is stable while the transcript only grows. */
export interface Step {
  /**
   * The step number users and agents see: the agent's own step number (Antigravity's
   * `step_index`) or the position in the normalized list (others); stable while the file grows.
   * Several steps may share it (one Antigravity step can hold reasoning, text and tool calls).
   */
  step: number;
  /**
   * The finer internal order and identity of the step in its thread, when `step` alone is not
   * unique (Antigravity: `step_index * 16 + slot`); absent means `step`. Never part of what
   * show, search, MCP or links return.
   */
  seq?: number;
  role: Role;
  kind: StepKind;
  text: string;
  /** Tool name for tool_call / tool_result steps (e.g. `bash`, `edit_file`). */
  tool?: string;
  /** What the tool acted on: a file path or a command line. */
  target?: string;
  /** ISO 8601 when known. */
  timestamp?: string;
  source: SourceRef;
}

/** A step's internal order key (see Step.seq). */
export const seqOf = (s: { step: number; seq?: number }): number => s.seq ?? s.step;

/** Thread metadata; `id` is `<agent>:<native session id>` and stable across re-index. */
export interface ThreadMeta {
  id: string;
  /** The agent that wrote the transcript; `other` only for saved threads from other apps. */
  agent: ThreadAgent;
  sessionId: string;
  /** Absolute working directory / workspace when known. */
  project?: string;
  /** First real user request, wrappers stripped. */
  title?: string;
  startedAt?: string;
  updatedAt?: string;
  /** Transcript file path. */
  source: string;
  /** For sidechains (subagents) and forks: the thread this one branched from. */
  parentId?: string;
}

/** Something a parser could not understand. Recorded, shown by `tapedeck doctor`, never thrown. */
export interface ParseIssue {
  path: string;
  line?: number;
  message: string;
}
