/**
 * Turns Codex rollout records into normalized steps. Shared by the JSONL line parser and the legacy
 * `.json` document parser, so both read response items the same way.
 *
 * Codex records most things twice: the real prompt as a `response_item` user message and as an
 * `event_msg.user_message`; assistant text as an `agent_message` event and (usually) a
 * `response_item` message; reasoning as `agent_reasoning` events and a `reasoning` item — in
 * either order, and sometimes only one copy. Each copy waits in a small list for its twin from the
 * other channel; the twin is dropped, so one copy of each is kept and repeated identical prompts
 * ("yes") still count as many times as they were typed.
 */

import { fingerprint, pushBounded, toIso } from '../../core/format.js';
import { asString, isRecord, squash, titleFrom } from '../../core/text.js';
import type { Role, StepKind, ThreadMeta } from '../../core/types.js';
import type { ParseSink } from '../../ports/source.js';
import { cwdFromEnvironmentContext, isInjectedUserText } from './injected.js';
import { decodeArguments, describeCodexCall, readToolOutput } from './tools.js';

type TwinKind = 'prompt' | 'response' | 'reasoning';
type Channel = 'item' | 'event';
/** A copy waiting for its twin: [channel it came from, kind, fingerprint of its squashed text]. */
type Twin = [Channel, TwinKind, string];
/** A tool call waiting for its output: [call_id, tool, target or null]. */
type PendingCall = [string, string, string | null];

const MAX_TWINS = 16;
const MAX_CALLS = 64;
const MAX_UNKNOWN = 32;

/** Response item types Codex persists that carry nothing to index. */
const SKIPPED_ITEMS = new Set(['ghost_snapshot', 'compaction', 'compaction_summary', 'other']);

/** Everything needed to continue after the last record; JSON-serializable and bounded. */
export interface CodexState {
  v: 1;
  next: number;
  lastTs?: string;
  maxTs?: string;
  startedAt?: string;
  /** The first session_meta names the thread; later ones are a fork's replayed parent. */
  metaSeen?: boolean;
  sessionId?: string;
  project?: string;
  titled?: boolean;
  twins: Twin[];
  calls: PendingCall[];
  /** Unknown line / item types already reported (one issue per type). */
  unknown: string[];
}

/** A fresh state, or a saved one checked for shape (a bad one starts over rather than throwing). */
export function restoreCodexState(state: unknown): CodexState {
  const fresh: CodexState = { v: 1, next: 0, twins: [], calls: [], unknown: [] };
  if (!isRecord(state) || state.v !== 1 || typeof state.next !== 'number') return fresh;
  const s = state as unknown as CodexState;
  return {
    ...s,
    twins: Array.isArray(s.twins) ? s.twins : [],
    calls: Array.isArray(s.calls) ? s.calls : [],
    unknown: Array.isArray(s.unknown) ? s.unknown : [],
  };
}

const TEXT_PART_TYPES = new Set(['input_text', 'output_text', 'text', 'summary_text', 'reasoning_text']);

/** Text parts of a message `content` or reasoning `summary` (a string in some legacy items, else `[{type, text}]`). */
function textParts(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  const out: string[] = [];
  for (const c of content) {
    if (!isRecord(c)) continue;
    // Images and refusals carry nothing to index.
    if (TEXT_PART_TYPES.has(c.type as string)) {
      const t = asString(c.text);
      if (t) out.push(t);
    }
  }
  return out;
}

/** Builds one thread from Codex records; the caller sets the line context before each record. */
export class CodexThreadBuilder {
  readonly s: CodexState;
  private sink!: ParseSink;
  private lineNo = 1;
  private ts: string | undefined;
  private meta: Partial<Omit<ThreadMeta, 'id' | 'agent' | 'source'>> = {};

  constructor(
    private readonly path: string,
    state?: unknown,
  ) {
    this.s = restoreCodexState(state);
  }

  /** Start a record: where it came from and its timestamp (absent → the last one seen). */
  begin(sink: ParseSink, lineNo: number, timestamp: unknown): void {
    this.sink = sink;
    this.lineNo = lineNo;
    this.meta = {};
    const iso = toIso(timestamp);
    if (iso) {
      this.s.lastTs = iso;
      if (!this.s.startedAt) this.s.startedAt = this.meta.startedAt = iso;
      if (!this.s.maxTs || iso > this.s.maxTs) this.s.maxTs = this.meta.updatedAt = iso;
    }
    this.ts = this.s.lastTs;
  }

  /** Move to another line of the same record (items inside a document). */
  at(lineNo: number): void {
    this.lineNo = lineNo;
  }

  /** Finish a record: push whatever thread facts it revealed. */
  end(): void {
    if (Object.keys(this.meta).length > 0) this.sink.thread(this.meta);
    this.meta = {};
  }

  issue(message: string): void {
    this.sink.issue({ path: this.path, line: this.lineNo, message });
  }

  /** Report an unknown type once per parser (state remembers across resumes). */
  unknownType(what: string): void {
    if (this.s.unknown.includes(what)) return;
    pushBounded(this.s.unknown, what, MAX_UNKNOWN);
    this.issue(`unknown ${what}`);
  }

  /** `session_meta` (and the legacy `{session}` header): only the first one names this thread. */
  sessionMeta(p: Record<string, unknown>): void {
    if (this.s.metaSeen) return;
    this.s.metaSeen = true;
    const id = asString(p.id);
    if (id) this.s.sessionId = this.meta.sessionId = id;
    this.setProject(asString(p.cwd));
    const forkedFrom = asString(p.forked_from_id);
    const source = isRecord(p.source) && isRecord(p.source.subagent) ? p.source.subagent : undefined;
    const spawn =
      source && isRecord(source.thread_spawn) ? asString(source.thread_spawn.parent_thread_id) : undefined;
    const parent = forkedFrom ?? spawn;
    if (parent) this.meta.parentId = `codex:${parent}`;
  }

  /** `turn_context`: its cwd names the project when session_meta did not. */
  turnContext(p: Record<string, unknown>): void {
    this.setProject(asString(p.cwd));
  }

  private setProject(cwd: string | undefined): void {
    if (cwd?.trim() && !this.s.project) this.s.project = this.meta.project = cwd.trim();
  }

  /** One response item (rollout `response_item` payload or a legacy `items[]` entry). */
  item(p: Record<string, unknown>): void {
    const type = asString(p.type);
    switch (type) {
      case 'message':
        this.message(p);
        return;
      case 'reasoning': {
        // The readable part is the summary; raw `content` only when a provider sends no summary.
        const summary = textParts(p.summary);
        this.twin('item', 'reasoning', summary.length > 0 ? summary : textParts(p.content));
        return;
      }
      case 'function_call':
        this.call(asString(p.name) ?? 'unknown', decodeArguments(p.arguments), asString(p.call_id));
        return;
      case 'custom_tool_call':
        this.call(asString(p.name) ?? 'unknown', p.input, asString(p.call_id));
        return;
      case 'local_shell_call':
        this.call('local_shell', p.action, asString(p.call_id) ?? asString(p.id));
        return;
      case 'web_search_call': {
        // No output item follows a web search; the call (its query) is all there is.
        const query = isRecord(p.action) ? asString(p.action.query)?.trim() : undefined;
        if (query) this.emit('assistant', 'tool_call', `web_search ${query}`, 'web_search', query);
        return;
      }
      case 'function_call_output':
      case 'custom_tool_call_output':
        this.output(asString(p.call_id), p.output);
        return;
      default:
        if (type && SKIPPED_ITEMS.has(type)) return;
        this.unknownType(`response_item type "${type ?? '(none)'}"`);
    }
  }

  /** One `event_msg` payload; only the copies of prompts, answers and reasoning matter. */
  event(p: Record<string, unknown>): void {
    switch (p.type) {
      case 'user_message': {
        // Older builds also echoed injected context as user_message events with a non-plain kind.
        if (p.kind !== undefined && p.kind !== 'plain') return;
        const text = asString(p.message) ?? '';
        if (!isInjectedUserText(text)) this.twin('event', 'prompt', [text]);
        return;
      }
      case 'agent_message':
        this.twin('event', 'response', [asString(p.message) ?? '']);
        return;
      case 'agent_reasoning':
        this.twin('event', 'reasoning', [asString(p.text) ?? '']);
        return;
      default:
      // token_count, task_started, task_complete, turn_aborted, context_compacted, …: status only.
    }
  }

  /** A `compacted` record: the summary Codex continues from. */
  compacted(p: Record<string, unknown>): void {
    const text = asString(p.message)?.trim();
    if (text) this.emit('system', 'summary', text);
  }

  private message(p: Record<string, unknown>): void {
    const parts = textParts(p.content);
    if (p.role === 'user') {
      for (const part of parts) {
        const cwd = cwdFromEnvironmentContext(part);
        if (cwd) this.setProject(cwd);
      }
      const typed = parts.filter((t) => !isInjectedUserText(t));
      if (typed.length > 0) this.twin('item', 'prompt', [typed.join('\n\n')]);
    } else if (p.role === 'assistant') {
      if (parts.length > 0) this.twin('item', 'response', [parts.join('\n\n')]);
    }
    // developer / system messages: instructions Codex sends, never the conversation.
  }

  /** Emit the parts whose twin from the other channel has not been seen; remember them for it. */
  private twin(channel: Channel, kind: TwinKind, parts: string[]): void {
    const fresh: string[] = [];
    const fps: string[] = [];
    for (const raw of parts) {
      const text = raw.trim();
      if (!text) continue;
      const fp = fingerprint(squash(text));
      const at = this.s.twins.findIndex(([c, k, f]) => c !== channel && k === kind && f === fp);
      if (at >= 0) this.s.twins.splice(at, 1);
      else {
        fresh.push(text);
        fps.push(fp);
      }
    }
    if (fresh.length === 0) return;
    const text = fresh.join('\n\n');
    if (kind === 'prompt') this.emit('user', 'prompt', text);
    else this.emit('assistant', kind, text);
    for (const fp of fps) pushBounded(this.s.twins, [channel, kind, fp], MAX_TWINS);
    if (kind === 'prompt' && !this.s.titled) {
      this.s.titled = true;
      this.meta.title = titleFrom(text);
    }
  }

  private call(name: string, args: unknown, callId: string | undefined): void {
    // Legacy rollouts record no cwd; a shell call's `workdir` is where the session ran.
    const workdir = isRecord(args) ? asString(args.workdir)?.trim() : undefined;
    if (workdir?.startsWith('/') || (workdir && /^[A-Za-z]:[\\/]/.test(workdir))) this.setProject(workdir);
    const info = describeCodexCall(name, args);
    this.emit('assistant', 'tool_call', info.text, info.tool, info.target);
    if (callId) pushBounded(this.s.calls, [callId, info.tool, info.target ?? null], MAX_CALLS);
  }

  private output(callId: string | undefined, raw: unknown): void {
    const at = callId ? this.s.calls.findIndex((c) => c[0] === callId) : -1;
    const call = at >= 0 ? this.s.calls.splice(at, 1)[0] : undefined;
    const out = readToolOutput(raw);
    const body = out.text.trimEnd();
    const text = out.failed ? `[error] ${body}`.trimEnd() : body;
    if (text) this.emit('tool', 'tool_result', text, call?.[1], call?.[2] ?? undefined);
  }

  private emit(role: Role, kind: StepKind, text: string, tool?: string, target?: string): void {
    // A twin always arrives within its turn: a new prompt ends the wait for the previous turn's
    // answer copies, and any agent activity ends the wait for the prompt's copy.
    if (kind === 'prompt') this.s.twins = this.s.twins.filter(([, k]) => k === 'prompt');
    else this.s.twins = this.s.twins.filter(([, k]) => k !== 'prompt');
    this.sink.step({
      step: this.s.next++,
      role,
      kind,
      text,
      ...(tool !== undefined ? { tool } : {}),
      ...(target !== undefined ? { target } : {}),
      ...(this.ts ? { timestamp: this.ts } : {}),
      source: { path: this.path, line: this.lineNo },
    });
  }
}
