/**
 * Incremental parser for Antigravity transcripts (`transcript_full.jsonl` / `transcript.jsonl`).
 *
 * One JSON object per native step: `{step_index, source, type, status, created_at, content,
 * thinking, tool_calls, error_code}`. What becomes a step:
 * - USER_INPUT → prompt (wrapper and injected blocks stripped, see user-text.ts).
 * - PLANNER_RESPONSE → reasoning (`thinking`), response (`content`), one tool_call per call.
 * - Tool-result types → tool_result for the oldest pending call of a compatible kind, else the
 *   oldest pending call: results carry no call id, so pairing is by position. Status ERROR, an
 *   `error_code` or an `error` field → `[error] `. A result still RUNNING went to the background:
 *   it is held (bounded) until a SYSTEM_MESSAGE `Task id "…" finished with result: …` arrives,
 *   which then becomes that call's tool_result.
 * - ERROR_MESSAGE → while calls are pending it is the failed outcome of the oldest one (the
 *   harness rejected the call: "Error invalid tool call…"), so it becomes that call's
 *   `[error] ` tool_result; otherwise a role 'system', kind 'response' step `[error] …`, because
 *   errors are what people search for.
 * - Scaffolding (CONVERSATION_HISTORY, EPHEMERAL_MESSAGE, KNOWLEDGE_ARTIFACTS, CHECKPOINT, any
 *   other SYSTEM_MESSAGE) is dropped; results still WAITING for approval are skipped.
 * - A type never seen before is reported once; if it has content while calls are pending it is
 *   taken as their result, so one new result type does not shift every later pairing.
 *
 * Step numbers: see step-number.ts (`step_index * 16 + slot`).
 * Thread: sessionId = the conversation id (the `brain/<id>` folder). The format records no cwd;
 * the project comes from a stated workspace list, a command's `Cwd`, or the folder of the files
 * the session named (workspace.ts).
 */

import { toIso } from '../../core/format.js';
import { asString, isRecord, titleFrom, tryParseJson } from '../../core/text.js';
import type { Step } from '../../core/types.js';
import type { LineParser, ParseSink } from '../../ports/source.js';
import { antigravityStep, MAX_TOOL_CALL_SLOTS, SLOT } from './step-number.js';
import { describeToolCall } from './tool-call.js';
import { userRequestText } from './user-text.js';
import {
  activeDocument,
  foldPath,
  outranks,
  type ProjectSource,
  toPath,
  workspaceFromListing,
} from './workspace.js';

/** A call waiting for its result (or for its background task to finish). */
interface PendingCall {
  tool: string;
  target?: string;
  /** Background task id, once the call went to the background. */
  task?: string;
}

/** Everything needed to continue after the last line; small and JSON-serializable. */
export interface AntigravityState {
  v: 1;
  /** Last native step_index seen (-1 before the first), for lines that lack one. */
  lastIndex: number;
  lastTs?: string;
  startedAt?: string;
  updatedAt?: string;
  titled: boolean;
  hasProject: boolean;
  /** What the project was taken from (absent in states saved before: then a `Cwd`). */
  projectFrom?: ProjectSource;
  /** The deepest folder holding every file path the session named so far. */
  pathsDir?: string;
  pending: PendingCall[];
  background: PendingCall[];
  /** Unknown line types already reported. */
  unknown: string[];
}

const RESULT_TYPES = new Set([
  'VIEW_FILE',
  'RUN_COMMAND',
  'GREP_SEARCH',
  'LIST_DIRECTORY',
  'CODE_ACTION',
  'WRITE_TO_FILE',
  'REPLACE_FILE_CONTENT',
  'MULTI_REPLACE_FILE_CONTENT',
  'TOOL_RESPONSE',
  'GENERIC',
]);

const SCAFFOLDING = new Set([
  'CONVERSATION_HISTORY',
  'EPHEMERAL_MESSAGE',
  'KNOWLEDGE_ARTIFACTS',
  'CHECKPOINT',
]);

/** Which call names a typed result can answer; untyped results (TOOL_RESPONSE, GENERIC) take any. */
const ANSWERS: Record<string, RegExp> = {
  VIEW_FILE: /view|read/,
  RUN_COMMAND: /command/,
  GREP_SEARCH: /grep|search/,
  LIST_DIRECTORY: /list|dir/,
  WRITE_TO_FILE: /write/,
  REPLACE_FILE_CONTENT: /replace/,
  MULTI_REPLACE_FILE_CONTENT: /replace/,
  CODE_ACTION: /replace|write|edit/,
};

/** Tools whose target is a file (not a folder to search or list, not a command line). */
const FILE_TOOL = /file|code_action/;

/** Bounds on what the state remembers; calls beyond them are forgotten oldest first. */
const MAX_PENDING = 32;
const MAX_BACKGROUND = 32;
const MAX_UNKNOWN = 32;

const TASK_FINISHED =
  /Task id "([^"]+)" finished with result:?([\s\S]*?)(?=\[Message\]|<\/SYSTEM_MESSAGE>|$)/g;
const BACKGROUND_ID = /task id:\s*(\S+)/i;
const OUTPUT_HEADER = /^(?:Created At|Completed At):[^\n]*(?:\n|$)/;

function freshState(): AntigravityState {
  return { v: 1, lastIndex: -1, titled: false, hasProject: false, pending: [], background: [], unknown: [] };
}

function isState(v: unknown): v is AntigravityState {
  return (
    isRecord(v) &&
    v.v === 1 &&
    typeof v.lastIndex === 'number' &&
    Array.isArray(v.pending) &&
    Array.isArray(v.background) &&
    Array.isArray(v.unknown)
  );
}

/** `content` as text: a string, or `{text}` in some builds. */
function contentText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (isRecord(v) && typeof v.text === 'string') return v.text;
  return '';
}

/** Tool output without the `Created At:` / `Completed At:` header Antigravity puts on top. */
export function cleanOutput(content: string): string {
  let s = content.trimStart();
  for (let m = OUTPUT_HEADER.exec(s); m; m = OUTPUT_HEADER.exec(s)) s = s.slice(m[0].length).trimStart();
  return s.trim();
}

/**
 * Why a step failed: its `error` / `error_code` text ('' when only `status: ERROR` says so), or
 * undefined when it did not fail.
 */
function failureOf(rec: Record<string, unknown>): string | undefined {
  const code = rec.error_code;
  const codeText =
    typeof code === 'string' ? code.trim() : typeof code === 'number' && code !== 0 ? String(code) : '';
  const error = typeof rec.error === 'string' ? rec.error.trim() : '';
  if (rec.status !== 'ERROR' && !codeText && !error) return undefined;
  return [error, codeText].filter(Boolean).join(' ');
}

/** `[error] ` text from the output and the failure detail, each kept when it adds something. */
function errorText(output: string, failure: string): string {
  const parts = [output, output.includes(failure) ? '' : failure].filter(Boolean);
  return `[error] ${parts.join('\n') || 'failed'}`;
}

export class AntigravityLineParser implements LineParser {
  private readonly s: AntigravityState;
  private readonly sessionId: string | undefined;
  private announced = false;

  constructor(
    private readonly path: string,
    state?: unknown,
  ) {
    this.s = isState(state) ? structuredClone(state) : freshState();
    this.sessionId = conversationIdOf(path);
  }

  state(): AntigravityState {
    return structuredClone(this.s);
  }

  line(text: string, lineNo: number, sink: ParseSink): void {
    if (text.trim() === '') return;
    const parsed = tryParseJson(text);
    if (!parsed.ok) {
      this.issue(sink, lineNo, `invalid JSON: ${parsed.error.slice(0, 120)}`);
      return;
    }
    const rec = parsed.value;
    const type = isRecord(rec) ? asString(rec.type) : undefined;
    if (!isRecord(rec) || !type) {
      this.issue(sink, lineNo, isRecord(rec) ? 'line has no "type"' : 'expected a JSON object per line');
      return;
    }

    if (!this.announced && this.sessionId) sink.thread({ sessionId: this.sessionId });
    this.announced = true;

    const idx = rec.step_index;
    const stepIndex =
      typeof idx === 'number' && Number.isInteger(idx) && idx >= 0 ? idx : this.s.lastIndex + 1;
    this.s.lastIndex = stepIndex;
    const ts = this.noteTime(rec.created_at, sink);
    const content = contentText(rec.content);
    if (content.includes('CorpusName')) {
      const workspace = workspaceFromListing(content);
      if (workspace) this.project(workspace, 'workspace', sink);
    }
    this.dispatch(type, rec, { stepIndex, lineNo, ts }, sink);
  }

  /** Take `path` as the project when `source` outranks what the project came from so far. */
  private project(path: string, source: ProjectSource, sink: ParseSink): void {
    const current = this.s.projectFrom ?? (this.s.hasProject ? 'cwd' : undefined);
    if (!outranks(source, current)) return;
    this.s.projectFrom = source;
    this.s.hasProject = true;
    sink.thread({ project: path });
  }

  /** A file the session named: the folder of all of them is the project while nothing better is known. */
  private notePath(raw: string | undefined, sink: ParseSink): void {
    const path = raw ? toPath(raw) : undefined;
    if (!path) return;
    const dir = foldPath(this.s.pathsDir, path);
    if (dir === undefined || dir === this.s.pathsDir) return;
    this.s.pathsDir = dir;
    this.project(dir, 'paths', sink);
  }

  private dispatch(type: string, rec: Record<string, unknown>, at: At, sink: ParseSink): void {
    if (type === 'USER_INPUT') this.userInput(rec, at, sink);
    else if (type === 'PLANNER_RESPONSE') this.planner(rec, at, sink);
    else if (RESULT_TYPES.has(type)) this.result(type, rec, at, sink);
    else if (type === 'SYSTEM_MESSAGE') this.systemMessage(rec, at, sink);
    else if (type === 'ERROR_MESSAGE') this.errorMessage(rec, at, sink);
    else if (!SCAFFOLDING.has(type)) this.unknownType(type, rec, at, sink);
  }

  private unknownType(type: string, rec: Record<string, unknown>, at: At, sink: ParseSink): void {
    if (!this.s.unknown.includes(type)) {
      if (this.s.unknown.length < MAX_UNKNOWN) this.s.unknown.push(type);
      this.issue(sink, at.lineNo, `unknown Antigravity step type "${type}"`);
    }
    const hasContent = contentText(rec.content).trim() !== '';
    if (this.s.pending.length > 0 && rec.source !== 'USER_EXPLICIT' && hasContent) {
      this.result(type, rec, at, sink);
    }
  }

  private userInput(rec: Record<string, unknown>, at: At, sink: ParseSink): void {
    // A new turn: calls still waiting were abandoned.
    this.s.pending = [];
    const raw = contentText(rec.content);
    this.notePath(activeDocument(raw), sink);
    const text = userRequestText(raw);
    if (!text) return;
    if (!this.s.titled) {
      this.s.titled = true;
      sink.thread({ title: titleFrom(text) });
    }
    this.emit(sink, at, SLOT.main, { role: 'user', kind: 'prompt', text });
  }

  private planner(rec: Record<string, unknown>, at: At, sink: ParseSink): void {
    // The model only speaks again once its previous calls are answered; leftovers never will be.
    this.s.pending = [];
    const thinking = typeof rec.thinking === 'string' ? rec.thinking.trim() : '';
    if (thinking) {
      this.emit(sink, at, SLOT.reasoning, { role: 'assistant', kind: 'reasoning', text: thinking });
    }
    const response = contentText(rec.content).trim();
    if (response) this.emit(sink, at, SLOT.response, { role: 'assistant', kind: 'response', text: response });

    const calls = Array.isArray(rec.tool_calls) ? rec.tool_calls : [];
    let slot = 0;
    for (const raw of calls) {
      const call = describeToolCall(raw);
      if (!call) {
        this.issue(sink, at.lineNo, 'tool call without a name');
        continue;
      }
      if (call.cwd) this.project(call.cwd, 'cwd', sink);
      else if (call.target && FILE_TOOL.test(call.tool)) this.notePath(call.target, sink);
      this.s.pending.push({ tool: call.tool, target: call.target });
      if (slot === MAX_TOOL_CALL_SLOTS) {
        this.issue(
          sink,
          at.lineNo,
          `more than ${MAX_TOOL_CALL_SLOTS} tool calls in one step; later calls get no step`,
        );
      }
      if (slot < MAX_TOOL_CALL_SLOTS) {
        this.emit(sink, at, SLOT.firstToolCall + slot, {
          role: 'assistant',
          kind: 'tool_call',
          text: call.text,
          tool: call.tool,
          target: call.target,
        });
      }
      slot++;
    }
    if (this.s.pending.length > MAX_PENDING) this.s.pending = this.s.pending.slice(-MAX_PENDING);
  }

  private result(type: string, rec: Record<string, unknown>, at: At, sink: ParseSink): void {
    // Waiting for the user's approval: the real result comes later as its own step.
    if (rec.status === 'WAITING') return;
    const call = this.takePending(type) ?? { tool: type.toLowerCase() };
    const output = cleanOutput(contentText(rec.content));

    if (rec.status === 'RUNNING') {
      const task = BACKGROUND_ID.exec(output)?.[1];
      this.s.background.push({ ...call, task });
      if (this.s.background.length > MAX_BACKGROUND) this.s.background.shift();
      return;
    }
    const failure = failureOf(rec);
    this.emitResult(sink, at, call, failure === undefined ? output : errorText(output, failure));
  }

  private systemMessage(rec: Record<string, unknown>, at: At, sink: ParseSink): void {
    const content = contentText(rec.content);
    let slot = 0;
    for (const m of content.matchAll(TASK_FINISHED)) {
      const task = m[1] ?? '';
      const i = this.s.background.findIndex((b) => b.task === task);
      const fallback = this.s.background.findIndex((b) => b.task === undefined);
      const j = i >= 0 ? i : fallback;
      const call = j >= 0 ? this.s.background.splice(j, 1)[0] : { tool: 'run_command' };
      const output = (m[2] ?? '').replace(/\n\s*Log: file:\/\/\S*\s*$/, '').trim();
      if (slot < MAX_TOOL_CALL_SLOTS) this.emitResult(sink, at, call, output, slot);
      slot++;
    }
  }

  private errorMessage(rec: Record<string, unknown>, at: At, sink: ParseSink): void {
    const output = cleanOutput(contentText(rec.content));
    const failure = failureOf(rec) ?? '';
    if (!output && !failure) return;
    const text = errorText(output, failure);
    const call = this.s.pending.shift();
    if (call) this.emitResult(sink, at, call, text);
    else this.emit(sink, at, SLOT.main, { role: 'system', kind: 'response', text });
  }

  /** Oldest pending call this result type can answer, else simply the oldest. */
  private takePending(type: string): PendingCall | undefined {
    const answers = ANSWERS[type];
    const i = answers ? this.s.pending.findIndex((p) => answers.test(p.tool)) : -1;
    return this.s.pending.splice(Math.max(i, 0), 1)[0];
  }

  private emitResult(
    sink: ParseSink,
    at: At,
    call: PendingCall,
    text: string,
    slot: number = SLOT.main,
  ): void {
    this.emit(sink, at, slot, {
      role: 'tool',
      kind: 'tool_result',
      text,
      tool: call.tool,
      target: call.target,
    });
  }

  private emit(sink: ParseSink, at: At, slot: number, s: Omit<Step, 'step' | 'source' | 'timestamp'>): void {
    if (!s.text) return;
    const step: Step = {
      step: at.stepIndex,
      seq: antigravityStep(at.stepIndex, slot),
      ...s,
      source: { path: this.path, line: at.lineNo },
    };
    if (s.tool === undefined) delete step.tool;
    if (s.target === undefined) delete step.target;
    if (at.ts) step.timestamp = at.ts;
    sink.step(step);
  }

  /** The line's time (or the last one seen); advances the thread's startedAt / updatedAt. */
  private noteTime(raw: unknown, sink: ParseSink): string | undefined {
    const ts = toIso(raw);
    if (!ts) return this.s.lastTs;
    this.s.lastTs = ts;
    const meta: { startedAt?: string; updatedAt?: string } = {};
    if (!this.s.startedAt) meta.startedAt = this.s.startedAt = ts;
    if (!this.s.updatedAt || ts > this.s.updatedAt) meta.updatedAt = this.s.updatedAt = ts;
    if (meta.startedAt || meta.updatedAt) sink.thread(meta);
    return ts;
  }

  private issue(sink: ParseSink, line: number, message: string): void {
    sink.issue({ path: this.path, line, message });
  }
}

interface At {
  stepIndex: number;
  lineNo: number;
  ts: string | undefined;
}

/** `…/brain/<conversationId>/.system_generated/logs/<file>` → conversationId. */
export function conversationIdOf(path: string): string | undefined {
  const parts = path.split(/[\\/]/);
  const n = parts.length;
  if (n >= 5 && parts[n - 2] === 'logs' && parts[n - 3] === '.system_generated' && parts[n - 5] === 'brain') {
    return parts[n - 4] || undefined;
  }
  return undefined;
}
