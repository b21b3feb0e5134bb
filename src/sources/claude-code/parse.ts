/**
 * Incremental parser for Claude Code transcripts (`projects/<encoded cwd>/<sessionId>.jsonl`,
 * subagent files `<sessionId>/subagents/*.jsonl` and legacy `agent-*.jsonl`).
 *
 * Claude Code writes one API turn as several lines sharing `message.id` (thinking, text, tool_use
 * each on its own line, sometimes a block twice); consecutive text of one message becomes one
 * response step, re-emitted (upsert) as more arrives. Tool results come back as `user` lines and
 * are paired with their call by `tool_use_id`.
 */
import { basename, dirname } from 'node:path';
import { fingerprint, preview, pushBounded, toIso } from '../../core/format.js';
import { asString, isRecord, titleFrom, tryParseJson } from '../../core/text.js';
import type { Role, StepKind, ThreadMeta } from '../../core/types.js';
import type { LineParser, ParseSink } from '../../ports/source.js';
import { isContinuationSummary, isScaffoldingPrompt, stripInjected, toolResultText } from './content.js';
import { describeToolCall } from './tools.js';

/** Line types Claude Code writes that carry nothing to index. */
const SKIPPED_TYPES = new Set([
  'file-history-snapshot',
  'queue-operation',
  'attachment',
  'progress',
  'last-prompt',
  'system',
  'custom-title',
  'agent-name',
  'mode',
  'permission-mode',
]);

const MAX_CALLS = 64;
const MAX_SEEN = 64;
const MAX_SUMMARIES = 16;
const MAX_UNKNOWN = 32;

/** The last emitted step when more blocks of the same message may still be merged into it. */
interface MergeTarget {
  step: number;
  kind: 'response' | 'reasoning';
  messageId: string;
  text: string;
  line: number;
  timestamp?: string;
}

/** A tool call still waiting for its result: [tool_use id, tool, target or null]. */
type PendingCall = [string, string, string | null];

/** Everything needed to continue after the last line; JSON-serializable and bounded. */
export interface ClaudeParserState {
  v: 1;
  next: number;
  lastTs?: string;
  maxTs?: string;
  startedAt?: string;
  sessionId?: string;
  project?: string;
  /** Where the current title came from: a real prompt wins over a hint (summary / ai-title). */
  titled?: 'prompt' | 'hint';
  last?: MergeTarget;
  /** `message.id` whose blocks `seen` fingerprints. */
  msgId?: string;
  seen: string[];
  calls: PendingCall[];
  summaries: string[];
  unknown: string[];
}

/** Who this file belongs to, from its path: main session, subagent, or legacy agent file. */
interface FileIdentity {
  sidechain: boolean;
  stem: string;
  /** Known from the path; legacy `agent-*.jsonl` learn it from the first line's `sessionId`. */
  parentSession?: string;
}

function identityOf(path: string): FileIdentity {
  const stem = basename(path).replace(/\.jsonl$/i, '');
  const dir = dirname(path);
  if (basename(dir) === 'subagents') return { sidechain: true, stem, parentSession: basename(dirname(dir)) };
  if (stem.startsWith('agent-')) return { sidechain: true, stem };
  return { sidechain: false, stem };
}

function freshState(): ClaudeParserState {
  return { v: 1, next: 0, seen: [], calls: [], summaries: [], unknown: [] };
}

function restore(state: unknown): ClaudeParserState {
  if (!isRecord(state) || state.v !== 1 || typeof state.next !== 'number') return freshState();
  const s = state as unknown as ClaudeParserState;
  return {
    ...s,
    seen: Array.isArray(s.seen) ? s.seen : [],
    calls: Array.isArray(s.calls) ? s.calls : [],
    summaries: Array.isArray(s.summaries) ? s.summaries : [],
    unknown: Array.isArray(s.unknown) ? s.unknown : [],
  };
}

/** Line parser for one Claude Code transcript file. */
export class ClaudeCodeLineParser implements LineParser {
  private readonly s: ClaudeParserState;
  private readonly id: FileIdentity;
  private sink!: ParseSink;
  private lineNo = 0;
  private ts: string | undefined;
  private meta: Partial<Omit<ThreadMeta, 'id' | 'agent' | 'source'>> = {};

  constructor(
    private readonly path: string,
    state?: unknown,
  ) {
    this.s = state === undefined ? freshState() : restore(state);
    this.id = identityOf(path);
  }

  state(): ClaudeParserState {
    // A copy: ingest may keep the snapshot while this parser goes on with more lines.
    return structuredClone(this.s);
  }

  line(text: string, lineNo: number, sink: ParseSink): void {
    this.sink = sink;
    this.lineNo = lineNo;
    this.meta = {};
    try {
      this.handle(text);
    } catch (e) {
      // A parser must never throw; an unexpected shape deep inside a line becomes an issue.
      this.issue(`could not read line: ${(e as Error).message}`);
    }
    if (Object.keys(this.meta).length > 0) sink.thread(this.meta);
  }

  private handle(text: string): void {
    if (text.trim() === '') return;
    const parsed = tryParseJson(text);
    if (!parsed.ok) {
      this.issue(`invalid JSON (${preview(parsed.error, 120)}): ${preview(text)}`);
      return;
    }
    const rec = parsed.value;
    if (!isRecord(rec)) {
      this.issue(
        `expected a JSON object, got ${Array.isArray(rec) ? 'an array' : rec === null ? 'null' : typeof rec}`,
      );
      return;
    }
    const type = asString(rec.type);
    if (!type) {
      this.issue('line has no "type"');
      return;
    }

    this.noteTimestamp(rec.timestamp);
    this.noteIdentity(rec);
    // Old builds wrote subagent turns inline into the main file; they belong to the subagent, and
    // the parent's Task result already carries the subagent's report.
    if (rec.isSidechain === true && !this.id.sidechain) return;

    switch (type) {
      case 'user':
        this.user(rec);
        return;
      case 'assistant':
        this.assistant(rec);
        return;
      case 'summary':
        this.summaryLine(asString(rec.summary));
        return;
      case 'ai-title':
        this.titleHint(asString(rec.aiTitle));
        return;
      default:
        if (SKIPPED_TYPES.has(type)) return;
        if (!this.s.unknown.includes(type)) {
          pushBounded(this.s.unknown, type, MAX_UNKNOWN);
          this.issue(`unknown line type "${type}"`);
        }
    }
  }

  private noteTimestamp(raw: unknown): void {
    const iso = toIso(raw);
    if (iso) {
      this.s.lastTs = iso;
      if (!this.s.startedAt) this.s.startedAt = this.meta.startedAt = iso;
      if (!this.s.maxTs || iso > this.s.maxTs) this.s.maxTs = this.meta.updatedAt = iso;
    }
    this.ts = this.s.lastTs;
  }

  private noteIdentity(rec: Record<string, unknown>): void {
    if (!this.s.sessionId) {
      const parent = this.id.parentSession ?? (this.id.sidechain ? asString(rec.sessionId) : undefined);
      if (!this.id.sidechain) this.s.sessionId = this.meta.sessionId = this.id.stem;
      else if (parent) {
        this.s.sessionId = this.meta.sessionId = `${parent}/${this.id.stem}`;
        this.meta.parentId = `claude-code:${parent}`;
      }
    }
    const cwd = asString(rec.cwd);
    if (!this.s.project && cwd) this.s.project = this.meta.project = cwd;
  }

  private user(rec: Record<string, unknown>): void {
    if (rec.isMeta === true) return;
    const msg = rec.message;
    if (!isRecord(msg)) {
      this.issue('user line without a "message" object');
      return;
    }
    const content = msg.content;
    if (typeof content === 'string') {
      this.userText(content, rec.isCompactSummary === true);
      return;
    }
    if (!Array.isArray(content)) {
      this.issue('user message content is neither a string nor blocks');
      return;
    }
    const texts: string[] = [];
    for (const block of content) {
      if (!isRecord(block)) continue;
      if (block.type === 'tool_result') this.toolResult(block);
      else if (block.type === 'text') {
        const t = asString(block.text);
        if (t) texts.push(t);
      }
      // images and documents pasted into a prompt: nothing to index
    }
    if (texts.length > 0) this.userText(texts.join('\n\n'), rec.isCompactSummary === true);
  }

  private userText(raw: string, compactSummary: boolean): void {
    const text = stripInjected(raw);
    if (!text) return;
    if (compactSummary || isContinuationSummary(text)) {
      this.emit('system', 'summary', text);
      return;
    }
    if (isScaffoldingPrompt(text)) return;
    this.emit('user', 'prompt', text);
    if (this.s.titled !== 'prompt') {
      this.s.titled = 'prompt';
      this.meta.title = titleFrom(text);
    }
  }

  private toolResult(block: Record<string, unknown>): void {
    const id = asString(block.tool_use_id);
    const at = id ? this.s.calls.findIndex((c) => c[0] === id) : -1;
    const call = at >= 0 ? this.s.calls.splice(at, 1)[0] : undefined;
    const body = toolResultText(block.content);
    const text = block.is_error === true ? `[error] ${body}`.trim() : body;
    if (!text) return;
    this.emit('tool', 'tool_result', text, call?.[1], call?.[2] ?? undefined);
  }

  private assistant(rec: Record<string, unknown>): void {
    const msg = rec.message;
    if (!isRecord(msg)) {
      this.issue('assistant line without a "message" object');
      return;
    }
    // Synthetic messages ("API Error: …", "No response requested.") are Claude Code status, not the model.
    if (rec.isApiErrorMessage === true || msg.model === '<synthetic>') return;
    const messageId =
      asString(msg.id) ?? asString(rec.requestId) ?? asString(rec.uuid) ?? `line:${this.lineNo}`;
    if (messageId !== this.s.msgId) {
      this.s.msgId = messageId;
      this.s.seen = [];
    }
    const content = msg.content;
    const blocks = typeof content === 'string' ? [{ type: 'text', text: content }] : content;
    if (!Array.isArray(blocks)) {
      this.issue('assistant message content is neither a string nor blocks');
      return;
    }
    for (const block of blocks) {
      if (!isRecord(block)) continue;
      if (block.type === 'text') this.assistantText('response', asString(block.text), messageId);
      else if (block.type === 'thinking')
        this.assistantText('reasoning', asString(block.thinking), messageId);
      else if (block.type === 'tool_use' || block.type === 'server_tool_use') this.toolUse(block);
      // redacted_thinking, web search results, images: nothing readable to index
    }
  }

  /** True the first time a block is seen for the current message (a block may be written twice). */
  private firstSighting(key: string): boolean {
    const fp = fingerprint(key);
    if (this.s.seen.includes(fp)) return false;
    pushBounded(this.s.seen, fp, MAX_SEEN);
    return true;
  }

  private assistantText(kind: 'response' | 'reasoning', raw: string | undefined, messageId: string): void {
    const text = raw?.trim();
    if (!text || !this.firstSighting(`${kind}:${text}`)) return;
    const last = this.s.last;
    if (last && last.kind === kind && last.messageId === messageId) {
      // Continuation of the same API turn: grow the step in place (upsert keeps its number and line).
      last.text = `${last.text}\n\n${text}`;
      this.sink.step({
        step: last.step,
        role: 'assistant',
        kind,
        text: last.text,
        ...(last.timestamp ? { timestamp: last.timestamp } : {}),
        source: { path: this.path, line: last.line },
      });
      return;
    }
    const step = this.emit('assistant', kind, text);
    this.s.last = { step, kind, messageId, text, line: this.lineNo, timestamp: this.ts };
  }

  private toolUse(block: Record<string, unknown>): void {
    const id = asString(block.id);
    if (id && !this.firstSighting(`tool_use:${id}`)) return;
    const info = describeToolCall(asString(block.name) ?? 'unknown', block.input);
    this.emit('assistant', 'tool_call', info.text, info.tool, info.target);
    if (id) pushBounded(this.s.calls, [id, info.tool, info.target ?? null], MAX_CALLS);
  }

  private summaryLine(raw: string | undefined): void {
    const text = raw?.trim();
    if (!text) return;
    // The same title-like summary is often appended again for another leaf; index it once.
    const fp = fingerprint(text);
    if (!this.s.summaries.includes(fp)) {
      pushBounded(this.s.summaries, fp, MAX_SUMMARIES);
      this.emit('system', 'summary', text);
    }
    this.titleHint(text);
  }

  /** Summary lines and ai-title name a session with no real prompt yet; the first prompt replaces them. */
  private titleHint(raw: string | undefined): void {
    const text = raw?.trim();
    if (!text || this.s.titled) return;
    this.s.titled = 'hint';
    this.meta.title = titleFrom(text);
  }

  private emit(role: Role, kind: StepKind, text: string, tool?: string, target?: string): number {
    const step = this.s.next++;
    this.sink.step({
      step,
      role,
      kind,
      text,
      ...(tool !== undefined ? { tool } : {}),
      ...(target !== undefined ? { target } : {}),
      ...(this.ts ? { timestamp: this.ts } : {}),
      source: { path: this.path, line: this.lineNo },
    });
    // Anything emitted in between ends a mergeable run.
    this.s.last = undefined;
    return step;
  }

  private issue(message: string): void {
    this.sink.issue({ path: this.path, line: this.lineNo, message });
  }
}
