/**
 * Nowledge Mem thread paths over Tapedeck's saved threads. The plugin's thread id (its conversation
 * id) is the saved thread's id; the messages are stored like any saved thread's (redacted, capped).
 *
 * - `GET /threads/{id}` → `{id, thread_id, title, source, messages: [{role, content, timestamp}]}`.
 *   A thread this caller does not have is a **200** `{"error": "thread_not_found", "error_code":
 *   "thread_not_found", "status": 404}` with no `id`, `thread_id` or `messages` key: the Antigravity
 *   plugin imports only on that 200 (a real 404 is a failure to it), and would take any of those
 *   keys to mean "found".
 * - `POST /threads/import` merges into an existing saved thread (adding only messages it lacks), so
 *   two Stop hooks racing, or a retry, never fail or duplicate.
 * - `POST /threads/{id}/append` deduplicates by role + content (the plugin re-sends the transcript's
 *   unmatched part); a stale `expected_message_count` is a **409** with `error_code:
 *   checkpoint_conflict` and writes nothing.
 * - `POST /threads/{id}/reconcile-tail` first extends `matched_count` over tail messages that are
 *   already stored (the stored copy is redacted and capped, so the plugin's exact comparison stops
 *   early at such a message), so an unchanged transcript rewrites nothing.
 *
 * Same conversation twice: when the source is one of Tapedeck's agents and this server indexes that
 * agent's transcripts itself (it runs on the plugin's machine), the conversation is already the
 * indexed thread `<agent>:<id>`. An import then brings that index up to date and answers success
 * without a second copy (`indexed_thread` names it); GET keeps answering not-found for `<id>`.
 */
import type { Context } from 'hono';
import { z } from 'zod';
import type { Engine } from '../../../app/engine.js';
import { isTapedeckError } from '../../../core/errors.js';
import { redact } from '../../../core/redact.js';
import { squash } from '../../../core/text.js';
import type { AgentId } from '../../../core/types.js';
import {
  type AppendInput,
  appendInputFrom,
  importInputFrom,
  type SavedThreadDetail,
  type SaveResult,
} from '../../../services/saved-threads/index.js';
import {
  contentKey,
  LIMITS,
  type NormalizedMessage,
  normalizeMessages,
} from '../../../services/saved-threads/input.js';
import type { RoutesContext } from '../context.js';
import type { HttpEnv } from '../env.js';
import { addCompatRoute, compatAgent, compatSpace, guarded } from './compat-shared.js';
import { Message } from './saved-threads.js';

/** Messages per service call; longer lists are sent in several. */
const CHUNK = LIMITS.messagesPerCall;
const PAGE = 10_000;
/** How long an import may spend bringing the server's own index of that agent up to date. */
const INDEX_BUDGET_MS = 5_000;

const messages = z.array(Message).max(100_000);
const idField = z.string().min(1).max(200);
const key = z
  .string()
  .min(1)
  .max(200)
  .optional()
  .describe('Same key again: the first answer, nothing written');

export const CompatImportBody = z.looseObject({
  id: idField.optional().describe('Thread id (the plugin sends its conversation id)'),
  thread_id: idField.optional(),
  title: z.string().max(2000).optional(),
  source: z.string().max(100).optional().describe('google-antigravity, claude-code, codex, gemini-cli, …'),
  source_app: z.string().max(100).optional(),
  space: z.string().max(200).optional(),
  space_id: z.string().max(200).optional(),
  project: z.string().max(4096).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  messages: messages.optional(),
  idempotency_key: key,
});

export const CompatAppendBody = z.looseObject({
  messages,
  deduplicate: z.boolean().optional().describe('Skip messages already saved (default true)'),
  idempotency_key: key,
  expected_message_count: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('Write only if the thread has exactly this many messages (else 409 checkpoint_conflict)'),
});

export const CompatReconcileBody = z.looseObject({
  matched_count: z.number().int().min(0).describe('Leading messages that still match'),
  messages: messages.describe('The new tail, replacing every message after matched_count'),
});

const IdParams = z.object({ id: idField.describe('Thread id') });

type Detail = SavedThreadDetail;
type ThreadRecord = Detail['thread'];
type Stored = Detail['messages'][number];

/** The thread and every message, paged through the service. */
function readAll(engine: Engine, id: string): { detail: Detail; messages: Stored[] } {
  const detail = engine.savedThreads.get(id, { limit: PAGE });
  const all = [...detail.messages];
  for (let next = detail.next; next !== null; ) {
    const page = engine.savedThreads.get(id, { from: next, limit: PAGE });
    all.push(...page.messages);
    next = page.next;
  }
  return { detail, messages: all };
}

const threadSummary = (d: Detail, total: number) => ({
  id: d.thread.id,
  title: d.thread.title ?? null,
  source: d.source_app ?? d.thread.agent,
  space: d.thread.space,
  message_count: total,
});

const notFoundBody = (id: string) => ({
  error: 'thread_not_found',
  error_code: 'thread_not_found',
  status: 404,
  detail: `No thread "${id}" on this server; import it with POST /threads/import`,
});

const header = (c: Context<HttpEnv>) => c.req.header('idempotency-key') || undefined;

/** Append in chunks the service accepts; the checkpoint and key go with the first. */
function appendAll(engine: Engine, input: AppendInput): SaveResult {
  const list = input.messages;
  if (!Array.isArray(list) || list.length <= CHUNK) return engine.savedThreads.append(input);
  let out = engine.savedThreads.append({ ...input, messages: list.slice(0, CHUNK) });
  let added = out.messages_added;
  let skipped = out.messages_skipped;
  for (let i = CHUNK; i < list.length; i += CHUNK) {
    out = engine.savedThreads.append({
      thread: out.thread_id,
      messages: list.slice(i, i + CHUNK),
      deduplicate: input.deduplicate,
    });
    added += out.messages_added;
    skipped += out.messages_skipped;
  }
  return { ...out, messages_added: added, messages_skipped: skipped };
}

/** The same conversation already indexed by this server from the agent's own transcript file. */
function indexedTwin(
  ctx: RoutesContext,
  engine: Engine,
  agent: AgentId,
  id: string,
): ThreadRecord | undefined {
  try {
    engine.transcripts.index({ agents: [agent], budgetMs: INDEX_BUDGET_MS });
    ctx.indexed(Date.now());
  } catch (e) {
    if (!isTapedeckError(e) || e.code !== 'FORBIDDEN')
      ctx.log(`compat: indexing ${agent} before an import failed: ${(e as Error).message}`);
  }
  const t = engine.store.getThread(`${agent}:${id}`);
  return t && !t.source.startsWith('tapedeck://') ? t : undefined;
}

const TRUNCATED = /^([\s\S]*)\n\[… truncated \d+ more characters\]$/;

/** A stored message is `m` as Tapedeck keeps it (redacted, and capped when long). */
function sameMessage(stored: Stored, m: NormalizedMessage): boolean {
  if (stored.role !== m.role) return false;
  if (contentKey(m.role, stored.content) === m.contentKey) return true;
  const cut = TRUNCATED.exec(stored.content);
  return !!cut && squash(redact(m.text).text).startsWith(squash(cut[1]));
}

export function registerCompatThreadRoutes(ctx: RoutesContext): void {
  const { app, registry, threadBodyLimit } = ctx;

  addCompatRoute(app, registry, {
    method: 'get',
    path: '/threads/:id',
    summary:
      'Nowledge: a saved thread with every message; one this caller lacks is a 200 {"error": "thread_not_found", "status": 404}',
    params: IdParams,
    query: z.object({
      space: z.string().max(200).optional().describe('Accepted and ignored (ids are global)'),
    }),
    returns: '{id, thread_id, title, source, space, message_count, messages: [{role, content, timestamp}]}',
    handler: ({ c, engine, params }) =>
      guarded(c, () => {
        let found: ReturnType<typeof readAll>;
        try {
          found = readAll(engine, params.id);
        } catch (e) {
          if (isTapedeckError(e) && e.code === 'NOT_FOUND') return notFoundBody(params.id);
          throw e;
        }
        const { detail: d, messages: all } = found;
        return {
          ...threadSummary(d, all.length),
          thread_id: d.thread.id,
          project: d.thread.project ?? null,
          metadata: d.metadata,
          created_at: d.created_at,
          updated_at: d.updated_at,
          total_messages: all.length,
          messages: all.map((m) => ({ role: m.role, content: m.content, timestamp: m.timestamp ?? null })),
        };
      }),
  });

  addCompatRoute(app, registry, {
    method: 'post',
    path: '/threads/import',
    summary: 'Nowledge: import a thread (201 created; 200 when merged into the existing one)',
    body: CompatImportBody,
    bodyLimit: threadBodyLimit,
    status: 201,
    returns: '{success, id, thread_id, created, messages_added, messages_skipped, total_messages, thread}',
    handler: ({ c, engine, body }) =>
      guarded(c, () => {
        const input = importInputFrom(body);
        input.space = compatSpace(input.space);
        input.idempotencyKey ??= header(c);
        const list = Array.isArray(input.messages) ? input.messages : [];
        const agent = compatAgent(input.source);
        if (input.id !== undefined && agent && !engine.store.getThread(input.id)) {
          const twin = indexedTwin(ctx, engine, agent, input.id);
          if (twin)
            return c.json({
              success: true,
              id: input.id,
              thread_id: input.id,
              created: false,
              messages_added: 0,
              messages_skipped: list.length,
              total_messages: list.length,
              indexed_thread: twin.id,
              thread: { id: twin.id, title: twin.title ?? null, source: input.source, space: twin.space },
            });
        }
        const first = engine.savedThreads.import({ ...input, messages: list.slice(0, CHUNK), merge: true });
        const rest =
          list.length > CHUNK
            ? appendAll(engine, { thread: first.thread_id, messages: list.slice(CHUNK), deduplicate: true })
            : undefined;
        const total = rest?.total_messages ?? first.total_messages;
        const d = engine.savedThreads.get(first.thread_id, { limit: 1 });
        return c.json(
          {
            success: true,
            id: first.thread_id,
            thread_id: first.thread_id,
            created: first.created,
            messages_added: first.messages_added + (rest?.messages_added ?? 0),
            messages_skipped: first.messages_skipped + (rest?.messages_skipped ?? 0),
            total_messages: total,
            replayed: first.replayed,
            thread: threadSummary(d, total),
          },
          first.created ? 201 : 200,
        );
      }),
  });

  addCompatRoute(app, registry, {
    method: 'post',
    path: '/threads/:id/append',
    summary: 'Nowledge: append messages (deduplicated by role and content unless deduplicate is false)',
    params: IdParams,
    body: CompatAppendBody,
    bodyLimit: threadBodyLimit,
    returns: '{success, thread_id, messages_added, messages_skipped, total_messages, replayed}',
    handler: ({ c, engine, params, body }) =>
      guarded(
        c,
        () => {
          const input = appendInputFrom(params.id, body);
          input.idempotencyKey ??= header(c);
          const { created: _created, ...r } = appendAll(engine, input);
          return r;
        },
        'thread_not_found',
      ),
  });

  addCompatRoute(app, registry, {
    method: 'post',
    path: '/threads/:id/reconcile-tail',
    summary: 'Nowledge: keep the first matched_count messages and replace the rest with the tail',
    params: IdParams,
    body: CompatReconcileBody,
    bodyLimit: threadBodyLimit,
    returns:
      '{success, thread_id, matched_count, messages_kept, messages_removed, messages_added, total_messages}',
    handler: ({ c, engine, params, body }) =>
      guarded(
        c,
        () => {
          const { messages: stored } = readAll(engine, params.id);
          const tail = normalizeMessages(body.messages, Date.now(), { allowEmpty: true });
          let k = body.matched_count;
          let j = 0;
          if (k <= stored.length)
            while (j < tail.length && k + j < stored.length && sameMessage(stored[k + j], tail[j])) j++;
          if (j === tail.length && k + j === stored.length)
            return {
              success: true,
              thread_id: params.id,
              matched_count: k + j,
              messages_kept: stored.length,
              messages_removed: 0,
              messages_added: 0,
              total_messages: stored.length,
            };
          k += j;
          const rest = body.messages.slice(j);
          const r = engine.savedThreads.reconcile({
            thread: params.id,
            matchedCount: k,
            messages: rest.slice(0, CHUNK),
          });
          const more =
            rest.length > CHUNK
              ? appendAll(engine, { thread: params.id, messages: rest.slice(CHUNK), deduplicate: false })
              : undefined;
          return {
            ...r,
            matched_count: k,
            messages_added: r.messages_added + (more?.messages_added ?? 0),
            total_messages: more?.total_messages ?? r.total_messages,
          };
        },
        'thread_not_found',
      ),
  });
}
