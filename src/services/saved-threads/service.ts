/**
 * Saved threads: conversations any client uploads, kept in the same threads/steps as indexed
 * transcripts (so search, show and list cover them) under the source `tapedeck://thread/<id>`.
 *
 * Every change runs in one write transaction, and every check (idempotency key, expected count,
 * duplicates) reads inside it: a retried, replayed or concurrent upload writes each message once,
 * and a failed one writes nothing.
 */
import { invalidInput, notFound, TapedeckError } from '../../core/errors.js';
import { titleFrom } from '../../core/text.js';
import type { ThreadMeta } from '../../core/types.js';
import { type IndexPolicy, prepareStep } from '../../ingest/prepare-step.js';
import type { SavedThreadStore } from '../../ports/saved-thread-store.js';
import type {
  StepRecord,
  ThreadRecord,
  TranscriptStore,
  TranscriptWriter,
} from '../../ports/transcript-store.js';
import {
  type AppendInput,
  agentForSource,
  checkCount,
  checkId,
  checkMetadata,
  checkSource,
  checkSpace,
  checkTitle,
  type ImportInput,
  LIMITS,
  type NormalizedMessage,
  normalizeMessages,
  type ReconcileInput,
} from './input.js';

/** The answer to import and append (snake_case: it is what clients read). */
export interface SaveResult {
  success: true;
  thread_id: string;
  /** True when this call created the thread. */
  created: boolean;
  messages_added: number;
  /** Messages left out as already present. */
  messages_skipped: number;
  total_messages: number;
  /** True when an idempotency key matched an earlier call and this is its answer again. */
  replayed: boolean;
}

export interface ReconcileResult {
  success: true;
  thread_id: string;
  messages_kept: number;
  messages_removed: number;
  messages_added: number;
  total_messages: number;
}

export interface SavedMessage {
  /** 0-based position in the thread (the step number). */
  index: number;
  role: string;
  content: string;
  timestamp?: string;
  external_id?: string;
}

export interface SavedThreadDetail {
  thread: ThreadRecord;
  source_app: string | null;
  metadata: Record<string, unknown> | null;
  created_at: string;
  updated_at: string;
  messages: SavedMessage[];
  /** Next `from` when there are more messages. */
  next: number | null;
}

export interface SavedThreadSummary {
  id: string;
  title: string | null;
  agent: string;
  source_app: string | null;
  project: string | null;
  space: string;
  parent_id: string | null;
  total_messages: number;
  updated_at: string;
}

/** A new saved thread made by Tapedeck itself (a handoff). */
export interface NewThread {
  id: string;
  title: string;
  agent: ThreadMeta['agent'];
  sourceApp: string;
  project?: string;
  space: string;
  parentId?: string;
  metadata?: Record<string, unknown>;
  messages: { role: 'system' | 'user' | 'assistant'; text: string }[];
}

export interface SavedThreadServiceDeps {
  store: TranscriptStore;
  saved: SavedThreadStore;
  policy: IndexPolicy;
  now?: () => number;
  newId?: () => string;
}

/** The source of a saved thread's steps: not a file, so ingest never touches it. */
export const savedThreadUri = (id: string) =>
  `tapedeck://thread/${id.replace(/[%#?\s]/g, encodeURIComponent)}`;

const conflict = (message: string, details: Record<string, unknown>) =>
  new TapedeckError('CONFLICT', message, details);

export function createSavedThreadCore({
  store,
  saved,
  policy,
  now = Date.now,
  newId = () => crypto.randomUUID(),
}: SavedThreadServiceDeps) {
  const iso = () => new Date(now()).toISOString();

  /** The saved thread `id`, or a clear error when it is missing or an indexed transcript. */
  function requireSaved(id: string): ThreadRecord {
    const thread = store.getThread(id);
    if (thread && saved.get(id)) return thread;
    if (thread)
      throw conflict(
        `Thread "${id}" is an indexed transcript (${thread.source}); only saved threads accept changes`,
        {
          reason: 'not_a_saved_thread',
          thread_id: id,
        },
      );
    throw notFound(`No saved thread "${id}"; create it with \`tapedeck thread import\``, { thread_id: id });
  }

  /** Store messages as steps `start`, `start + 1`, … (capped, redacted, indexed). */
  function writeMessages(
    w: TranscriptWriter,
    id: string,
    messages: NormalizedMessage[],
    start: number,
  ): void {
    const source = savedThreadUri(id);
    messages.forEach((m, i) => {
      const step = start + i;
      const prepared = prepareStep(
        {
          step,
          role: m.role,
          kind: m.kind,
          text: m.text,
          timestamp: m.timestamp,
          source: { path: source, line: step + 1 },
        },
        policy,
      );
      if (!prepared) throw invalidInput(`message ${i + 1} has no text`);
      w.upsertStep(id, prepared);
      saved.addMessage(id, { step, externalId: m.externalId, contentKey: m.contentKey });
    });
  }

  const span = (messages: NormalizedMessage[]) => {
    const times = messages.map((m) => m.timestamp).sort();
    return { startedAt: times[0], updatedAt: times.at(-1) };
  };

  const firstTitle = (messages: NormalizedMessage[]) => {
    const m = messages.find((x) => x.role === 'user') ?? messages[0];
    return m ? checkTitle(titleFrom(m.text, LIMITS.titleChars)) : undefined;
  };

  /** Replay of an idempotency key: the first answer, or a conflict when it was for another thread. */
  function replay(key: string | undefined, thread: string | undefined): SaveResult | undefined {
    if (key === undefined) return undefined;
    const earlier = saved.getRequest(key);
    if (!earlier) return undefined;
    if (thread !== undefined && earlier.threadId !== thread)
      throw conflict(`The idempotency key "${key}" was already used for thread "${earlier.threadId}"`, {
        reason: 'idempotency_key_reused',
        thread_id: earlier.threadId,
      });
    return { ...(earlier.result as SaveResult), replayed: true };
  }

  function remember(key: string | undefined, op: string, result: SaveResult): SaveResult {
    if (key !== undefined)
      saved.saveRequest({ key, threadId: result.thread_id, op, result, createdAt: iso() });
    return result;
  }

  function appendIn(
    w: TranscriptWriter,
    thread: ThreadRecord,
    messages: NormalizedMessage[],
    opts: { expected?: number; deduplicate: boolean; key?: string; op: string },
  ): SaveResult {
    const id = thread.id;
    const count = saved.messageCount(id);
    if (opts.expected !== undefined && opts.expected !== count)
      throw conflict(
        `Thread "${id}" has ${count} messages, not the expected ${opts.expected}; fetch it and reconcile, then retry`,
        {
          reason: 'checkpoint_conflict',
          thread_id: id,
          expected_message_count: opts.expected,
          actual_message_count: count,
        },
      );
    const fresh: NormalizedMessage[] = [];
    const seenExternal = new Set<string>();
    for (const m of messages) {
      if (opts.deduplicate) {
        if (m.externalId !== undefined) {
          if (seenExternal.has(m.externalId) || saved.hasExternalId(id, m.externalId)) continue;
          seenExternal.add(m.externalId);
        } else if (saved.hasContentKey(id, m.contentKey, count)) continue;
      }
      fresh.push(m);
    }
    if (fresh.length > 0) {
      w.upsertThread({
        ...thread,
        title: thread.title ?? firstTitle(fresh),
        updatedAt: span(fresh).updatedAt,
      });
      writeMessages(w, id, fresh, count);
      w.refreshThreadCounts(id);
      saved.put({ ...saved.get(id)!, updatedAt: iso() });
    }
    return remember(opts.key, opts.op, {
      success: true,
      thread_id: id,
      created: false,
      messages_added: fresh.length,
      messages_skipped: messages.length - fresh.length,
      total_messages: count + fresh.length,
      replayed: false,
    });
  }

  interface ImportPlan {
    key?: string;
    givenId?: string;
    source?: string;
    title?: string;
    space: string;
    metadata?: Record<string, unknown>;
    project?: string;
    messages: NormalizedMessage[];
    merge: boolean;
  }

  function planImport(input: ImportInput): ImportPlan {
    return {
      key:
        input.idempotencyKey === undefined
          ? undefined
          : checkId(input.idempotencyKey, 'idempotency_key', LIMITS.keyChars),
      givenId: input.id === undefined ? undefined : checkId(input.id, 'id'),
      source: checkSource(input.source),
      title: checkTitle(input.title),
      space: checkSpace(input.space),
      metadata: checkMetadata(input.metadata),
      project: input.project === undefined ? undefined : checkId(input.project, 'project', 4096),
      messages: normalizeMessages(input.messages, now(), { allowEmpty: true }),
      merge: !!input.merge,
    };
  }

  function importIn(w: TranscriptWriter, plan: ImportPlan): SaveResult {
    const { key, givenId, source, title, space, metadata, project, messages } = plan;
    const again = replay(key, givenId);
    if (again) return again;

    const id = givenId ?? newId();
    const existing = store.getThread(id);
    if (existing) {
      if (!saved.get(id)) requireSaved(id);
      if (!plan.merge)
        throw conflict(`A saved thread "${id}" already exists; append to it, or import with merge`, {
          reason: 'thread_exists',
          thread_id: id,
          total_messages: saved.messageCount(id),
        });
      if (source || metadata) saved.put({ ...saved.get(id)!, sourceApp: source, metadata, updatedAt: iso() });
      return appendIn(w, existing, messages, { deduplicate: true, key, op: 'import' });
    }
    const at = iso();
    const { startedAt, updatedAt } = span(messages);
    w.upsertThread({
      id,
      agent: agentForSource(source),
      sessionId: id,
      project,
      title: title ?? firstTitle(messages),
      startedAt: startedAt ?? at,
      updatedAt: updatedAt ?? at,
      source: savedThreadUri(id),
    });
    saved.setSpace(id, space);
    saved.put({ threadId: id, sourceApp: source, metadata, createdAt: at, updatedAt: at });
    writeMessages(w, id, messages, 0);
    w.refreshThreadCounts(id);
    return remember(key, 'import', {
      success: true,
      thread_id: id,
      created: true,
      messages_added: messages.length,
      messages_skipped: 0,
      total_messages: messages.length,
      replayed: false,
    });
  }

  interface AppendPlan {
    id: string;
    key?: string;
    expected?: number;
    deduplicate: boolean;
    messages: NormalizedMessage[];
  }

  function planAppend(input: AppendInput): AppendPlan {
    return {
      id: checkId(input.thread, 'thread id'),
      key:
        input.idempotencyKey === undefined
          ? undefined
          : checkId(input.idempotencyKey, 'idempotency_key', LIMITS.keyChars),
      expected: checkCount(input.expectedMessageCount, 'expected_message_count'),
      deduplicate: input.deduplicate !== false,
      messages: normalizeMessages(input.messages, now()),
    };
  }

  function appendChecked(w: TranscriptWriter, p: AppendPlan): SaveResult {
    const again = replay(p.key, p.id);
    if (again) return again;
    return appendIn(w, requireSaved(p.id), p.messages, { ...p, op: 'append' });
  }

  interface ReconcilePlan {
    id: string;
    k: number;
    tail: NormalizedMessage[];
  }

  function planReconcile(input: ReconcileInput): ReconcilePlan {
    const id = checkId(input.thread, 'thread id');
    const k = checkCount(input.matchedCount, 'matched_count');
    if (k === undefined)
      throw invalidInput('matched_count is required: how many leading messages still match');
    return { id, k, tail: normalizeMessages(input.messages, now(), { allowEmpty: true }) };
  }

  function reconcileIn(w: TranscriptWriter, { id, k, tail }: ReconcilePlan): ReconcileResult {
    const thread = requireSaved(id);
    const count = saved.messageCount(id);
    if (k > count)
      throw invalidInput(`matched_count ${k} is more than the ${count} messages thread "${id}" has`, {
        reason: 'matched_count_too_large',
        actual_message_count: count,
      });
    const kept = new Set(
      saved
        .messageKeys(id)
        .filter((m) => m.step < k && m.externalId !== undefined)
        .map((m) => m.externalId),
    );
    const clash = tail.find((m) => m.externalId !== undefined && kept.has(m.externalId));
    if (clash)
      throw invalidInput(
        `The new tail repeats external_id "${clash.externalId}" of one of the first ${k} messages; matched_count is too large`,
      );
    w.truncateSteps(id, k);
    saved.truncateMessages(id, k);
    if (tail.length > 0) {
      w.upsertThread({ ...thread, title: thread.title ?? firstTitle(tail), updatedAt: span(tail).updatedAt });
      writeMessages(w, id, tail, k);
    }
    w.refreshThreadCounts(id);
    saved.put({ ...saved.get(id)!, updatedAt: iso() });
    return {
      success: true,
      thread_id: id,
      messages_kept: k,
      messages_removed: count - k,
      messages_added: tail.length,
      total_messages: k + tail.length,
    };
  }

  /** Create a thread Tapedeck made itself; `build` runs inside the transaction, so the id it picks is free. */
  function createOwn(build: (w: TranscriptWriter) => NewThread): NewThread & { total_messages: number } {
    return store.write((w) => {
      const t = build(w);
      const at = iso();
      w.upsertThread({
        id: t.id,
        agent: t.agent,
        sessionId: t.id,
        project: t.project,
        title: t.title,
        startedAt: at,
        updatedAt: at,
        source: savedThreadUri(t.id),
        parentId: t.parentId,
      });
      saved.setSpace(t.id, t.space);
      saved.put({
        threadId: t.id,
        sourceApp: t.sourceApp,
        metadata: t.metadata,
        createdAt: at,
        updatedAt: at,
      });
      const messages = normalizeMessages(
        t.messages.map((m) => ({ role: m.role, content: m.text, timestamp: at })),
        now(),
      );
      writeMessages(w, t.id, messages, 0);
      w.refreshThreadCounts(t.id);
      return { ...t, total_messages: messages.length };
    });
  }

  return {
    import(input: ImportInput): SaveResult {
      const plan = planImport(input);
      return store.write((w) => importIn(w, plan));
    },
    append(input: AppendInput): SaveResult {
      const plan = planAppend(input);
      return store.write((w) => appendChecked(w, plan));
    },
    reconcile(input: ReconcileInput): ReconcileResult {
      const plan = planReconcile(input);
      return store.write((w) => reconcileIn(w, plan));
    },
    /** Import, or append when the saved thread exists (decided inside one transaction). */
    save(input: ImportInput & { expectedMessageCount?: number; deduplicate?: boolean }): SaveResult {
      const imp = planImport(input);
      const expected = checkCount(input.expectedMessageCount, 'expected_message_count');
      return store.write((w) => {
        const id = imp.givenId;
        if (id !== undefined && saved.get(id)) {
          if (imp.messages.length === 0) throw invalidInput('messages is empty');
          return appendChecked(w, {
            id,
            key: imp.key,
            expected,
            deduplicate: input.deduplicate !== false,
            messages: imp.messages,
          });
        }
        if (expected !== undefined && expected !== 0)
          throw conflict(`Thread "${id ?? '(new)'}" has 0 messages, not the expected ${expected}`, {
            reason: 'checkpoint_conflict',
            thread_id: id,
            expected_message_count: expected,
            actual_message_count: 0,
          });
        return importIn(w, imp);
      });
    },
    createOwn,
    requireSaved,

    /** A saved thread with its messages (stored text: capped and redacted), paged by `from`/`limit`. */
    get(id: string, { from = 0, limit = 1000 }: { from?: number; limit?: number } = {}): SavedThreadDetail {
      const thread = requireSaved(checkId(id, 'thread id'));
      const info = saved.get(thread.id)!;
      const n = Math.max(1, Math.min(10_000, limit));
      const steps: StepRecord[] = store.getSteps(
        thread.id,
        Math.max(0, from),
        Number.MAX_SAFE_INTEGER,
        n + 1,
      );
      const ext = new Map(saved.messageKeys(thread.id).map((k) => [k.step, k.externalId]));
      return {
        thread,
        source_app: info.sourceApp ?? null,
        metadata: info.metadata ?? null,
        created_at: info.createdAt,
        updated_at: info.updatedAt,
        messages: steps.slice(0, n).map((s) => ({
          index: s.step,
          role: s.role,
          content: s.text,
          timestamp: s.timestamp,
          external_id: ext.get(s.step),
        })),
        next: steps.length > n ? steps[n].step : null,
      };
    },

    /** Saved threads, most recently changed first. */
    list({ limit = 50, offset = 0 }: { limit?: number; offset?: number } = {}): SavedThreadSummary[] {
      return saved.list(Math.max(1, Math.min(1000, limit)), Math.max(0, offset)).flatMap((info) => {
        const t = store.getThread(info.threadId);
        if (!t) return [];
        return [
          {
            id: t.id,
            title: t.title ?? null,
            agent: t.agent,
            source_app: info.sourceApp ?? null,
            project: t.project ?? null,
            space: t.space,
            parent_id: t.parentId ?? null,
            total_messages: t.stepCount,
            updated_at: info.updatedAt,
          },
        ];
      });
    },
  };
}

export type SavedThreadCore = ReturnType<typeof createSavedThreadCore>;
