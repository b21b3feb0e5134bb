/** Normalized domain types shared by every layer. Pure data: no I/O. */

export const AGENT_IDS = ['antigravity', 'claude-code', 'codex', 'gemini-cli'] as const;
export type AgentId = (typeof AGENT_IDS)[number];

export function isAgentId(value: string): value is AgentId {
  return (AGENT_IDS as readonly string[]).includes(value);
}

export type Role = 'user' | 'assistant' | 'tool' | 'system';
export type StepKind = 'prompt' | 'response' | 'reasoning' | 'tool_call' | 'tool_result' | 'summary';

/** Where a step came from: the transcript file and its 1-based line. */
export interface SourceRef {
  path: string;
  line: number;
}

/** One normalized step of a thread. `step` is stable while the transcript only grows. */
export interface Step {
  step: number;
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

/** Thread metadata; `id` is `<agent>:<native session id>` and stable across re-index. */
export interface ThreadMeta {
  id: string;
  agent: AgentId;
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

/** Something a parser could not understand. Recorded, shown by `hippo doctor`, never thrown. */
export interface ParseIssue {
  path: string;
  line?: number;
  message: string;
}
