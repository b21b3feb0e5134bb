/**
 * Rebuilds one Gemini CLI session as numbered steps, for both the `.json` document and the
 * replayable `.jsonl` log.
 *
 * Steps are positions in the normalized list. Each message record owns a run of consecutive
 * numbers starting where it was first written; the session remembers (bounded) where each recent
 * message id started, because the log rewrites history:
 * - a message id written again is an update of that message (tool results, tokens arrive later):
 *   the last message is re-emitted in place and any surplus steps are truncated; an earlier one is
 *   replaced only if its step count did not change (otherwise later steps would shift), else
 *   reported and left as it was;
 * - `{"$rewindTo": id}` drops that message and everything after it (truncate from its first step);
 * - `{"$set": {messages: [...]}}` replaces the whole history (the CLI syncs it after masking or
 *   compression), so numbering restarts at 0, every step is re-emitted with the `$set` line as
 *   its source, and whatever lies beyond the new end is truncated.
 *
 * Thread facts: sessionId and startTime from the metadata; updatedAt = the latest of
 * `lastUpdated` and message timestamps; title = the first prompt (re-derived if a rewind removes
 * it). Gemini CLI keys its folders by a project hash or slug and normally records no path, so
 * project comes from the session itself when it carries one (`projectRoot`, `cwd`, or the first
 * of `directories`, the workspace list `/dir add` records, which starts with the project root),
 * else from the `.project_root` file the CLI keeps in the project folder (project-root.ts), else
 * from the first tool call naming a path whose ancestor hashes to the project hash (project-hash.ts).
 * A subagent session (`chats/<parentSessionId>/<id>.jsonl`) gets parentId `gemini-cli:<parent>`.
 */

import { toIso } from '../../core/format.js';
import { asString, isRecord, titleFrom } from '../../core/text.js';
import type { ParseSink } from '../../ports/source.js';
import { messageSteps } from './message-steps.js';
import { projectHashOf, rootWithHash } from './project-hash.js';
import { projectRootBeside } from './project-root.js';
import type { StepDraft } from './step-draft.js';

/** Everything needed to continue after the last line; small and JSON-serializable. */
export interface GeminiState {
  v: 1;
  /** Next free step number. */
  next: number;
  /** `[messageId, firstStep]` of recent messages in file order (bounded, oldest dropped). */
  recent: Array<[string, number]>;
  /** Step of the prompt that gave the title; null while there is none. */
  titleStep: number | null;
  hasProject: boolean;
  /** SHA-256 of the project root, while the project is not known yet. */
  projectHash?: string;
  sessionId?: string;
  startedAt?: string;
  updatedAt?: string;
  lastTs?: string;
  /** Issue keys already reported (unknown message types and line shapes). */
  reported: string[];
}

/**
 * How many recent message ids are remembered for updates and rewinds (~6 KB of state at most with
 * UUID ids). A rewind further back than this is reported and ignored.
 */
const MAX_RECENT = 128;
const MAX_REPORTED = 32;

function isState(v: unknown): v is GeminiState {
  return (
    isRecord(v) &&
    v.v === 1 &&
    typeof v.next === 'number' &&
    Array.isArray(v.recent) &&
    Array.isArray(v.reported)
  );
}

function isAbsolute(p: unknown): p is string {
  return typeof p === 'string' && (p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p));
}

/** The workspace path a session record carries, if any. */
function projectOf(meta: Record<string, unknown>): string | undefined {
  if (isAbsolute(meta.projectRoot)) return meta.projectRoot;
  if (isAbsolute(meta.cwd)) return meta.cwd;
  if (Array.isArray(meta.directories) && isAbsolute(meta.directories[0])) return meta.directories[0];
  return undefined;
}

/** `…/chats/<parent>/<file>` → the parent session id of a subagent transcript. */
export function parentSessionOf(path: string): string | undefined {
  const parts = path.split(/[\\/]/);
  const n = parts.length;
  return n >= 3 && parts[n - 3] === 'chats' && parts[n - 2] ? parts[n - 2] : undefined;
}

export class GeminiSession {
  private readonly s: GeminiState;
  /** Folders already hashed against the project hash (per parse; cheap to redo after a resume). */
  private readonly hashed = new Set<string>();

  constructor(
    private readonly path: string,
    state?: unknown,
  ) {
    this.s = isState(state)
      ? structuredClone(state)
      : { v: 1, next: 0, recent: [], titleStep: null, hasProject: false, reported: [] };
  }

  state(): GeminiState {
    return structuredClone(this.s);
  }

  /** Session fields from the metadata line, a `$set`, or the top of a document. */
  metadata(meta: Record<string, unknown>, sink: ParseSink): void {
    const sessionId = asString(meta.sessionId);
    if (sessionId && sessionId !== this.s.sessionId) {
      this.s.sessionId = sessionId;
      const parent = parentSessionOf(this.path);
      sink.thread(parent ? { sessionId, parentId: `gemini-cli:${parent}` } : { sessionId });
    }
    const started = toIso(meta.startTime);
    if (started && !this.s.startedAt) {
      this.s.startedAt = started;
      sink.thread({ startedAt: started });
    }
    this.noteUpdated(toIso(meta.lastUpdated), sink);
    const project = this.s.hasProject ? undefined : (projectOf(meta) ?? projectRootBeside(this.path));
    if (project) this.setProject(project, sink);
    else if (!this.s.hasProject) this.s.projectHash ??= projectHashOf(meta, this.path);
  }

  private setProject(project: string, sink: ParseSink): void {
    this.s.hasProject = true;
    delete this.s.projectHash;
    sink.thread({ project });
  }

  /** A `$set` line: metadata, and possibly a whole new message history. */
  set(fields: Record<string, unknown>, line: number, sink: ParseSink): void {
    if (Array.isArray(fields.messages)) this.replaceAll(fields.messages, line, sink);
    this.metadata(fields, sink);
  }

  /** One message record, new or an update of one already written. */
  message(msg: Record<string, unknown>, id: string, line: number, sink: ParseSink): void {
    const out = messageSteps(msg, this.s.lastTs);
    const ts = toIso(msg.timestamp);
    if (ts) {
      this.s.lastTs = ts;
      this.noteUpdated(ts, sink);
    }
    if (!out.known) {
      this.issueOnce(`type:${out.type}`, `unknown Gemini message type "${out.type}"`, line, sink);
    }
    this.place(id, out.known ? out.drafts : [], line, sink);
  }

  /** `$rewindTo`: drop the message and everything after it. */
  rewind(id: string, line: number, sink: ParseSink): void {
    const i = this.s.recent.findIndex(([m]) => m === id);
    const entry = this.s.recent[i];
    if (!entry) {
      sink.issue({ path: this.path, line, message: `$rewindTo names a message not seen recently: ${id}` });
      return;
    }
    this.truncate(entry[1], sink);
    this.s.next = entry[1];
    this.s.recent.length = i;
  }

  /** A document is re-read whole: drop what an earlier, longer version left beyond the end. */
  endDocument(sink: ParseSink): void {
    sink.truncate(this.s.next);
  }

  /** Report `message` once per `key` for this session. */
  issueOnce(key: string, message: string, line: number, sink: ParseSink): void {
    if (this.s.reported.includes(key)) return;
    if (this.s.reported.length < MAX_REPORTED) this.s.reported.push(key);
    sink.issue({ path: this.path, line, message });
  }

  private replaceAll(messages: unknown[], line: number, sink: ParseSink): void {
    const before = this.s.next;
    this.s.next = 0;
    this.s.recent = [];
    this.s.titleStep = null;
    messages.forEach((m, i) => {
      if (isRecord(m)) this.message(m, asString(m.id) ?? `@${i}`, line, sink);
    });
    if (this.s.next < before) sink.truncate(this.s.next);
  }

  private place(id: string, drafts: StepDraft[], line: number, sink: ParseSink): void {
    const { recent } = this.s;
    const i = recent.findIndex(([m]) => m === id);
    const entry = recent[i];
    if (!entry) {
      recent.push([id, this.s.next]);
      if (recent.length > MAX_RECENT) recent.shift();
      this.write(this.s.next, drafts, line, sink);
      this.s.next += drafts.length;
      return;
    }
    const start = entry[1];
    const following = recent[i + 1];
    if (!following) {
      const before = this.s.next - start;
      this.write(start, drafts, line, sink);
      this.s.next = start + drafts.length;
      if (drafts.length < before) this.truncate(this.s.next, sink);
      return;
    }
    if (following[1] - start === drafts.length) {
      this.write(start, drafts, line, sink);
    } else {
      sink.issue({
        path: this.path,
        line,
        message: `message ${id} was rewritten with a different number of steps after later messages; kept the earlier version`,
      });
    }
  }

  private write(start: number, drafts: StepDraft[], line: number, sink: ParseSink): void {
    drafts.forEach((d, k) => {
      const step = start + k;
      if (d.kind === 'prompt' && (this.s.titleStep === null || this.s.titleStep >= step)) {
        this.s.titleStep = step;
        sink.thread({ title: titleFrom(d.text) });
      }
      sink.step({ step, ...d, source: { path: this.path, line } });
      if (this.s.projectHash && d.kind === 'tool_call' && d.target) {
        const root = rootWithHash(d.target, this.s.projectHash, this.hashed);
        if (root) this.setProject(root, sink);
      }
    });
  }

  private truncate(from: number, sink: ParseSink): void {
    sink.truncate(from);
    if (this.s.titleStep !== null && this.s.titleStep >= from) this.s.titleStep = null;
  }

  private noteUpdated(ts: string | undefined, sink: ParseSink): void {
    if (ts && (!this.s.updatedAt || ts > this.s.updatedAt)) {
      this.s.updatedAt = ts;
      sink.thread({ updatedAt: ts });
    }
  }
}
