/**
 * Saved threads: conversations any client uploads. Import, save (import or append), append with
 * an expected message count and an idempotency key (body field or `Idempotency-Key` header),
 * reconcile a changed tail, hand a session off, read and list. Bodies up to 16 MiB by default.
 */
import { z } from 'zod';
import {
  appendInputFrom,
  importInputFrom,
  reconcileInputFrom,
} from '../../../services/saved-threads/index.js';
import type { RoutesContext } from '../context.js';
import { addRoute } from '../route.js';
import { qInt } from './schemas.js';

const part = z.union([
  z.string(),
  z.looseObject({ type: z.string().optional(), text: z.string().optional() }),
]);
export const Message = z
  .looseObject({
    role: z
      .string()
      .max(40)
      .describe('user, assistant, system or tool (human, model, developer, function accepted)'),
    content: z
      .union([z.string(), z.array(part), z.looseObject({ text: z.string() })])
      .describe('Text, or a list of text parts'),
    timestamp: z.union([z.string(), z.number()]).optional().describe('ISO 8601 or epoch milliseconds'),
    external_id: z
      .union([z.string(), z.number()])
      .optional()
      .describe("The client's id for the message (deduplication)"),
  })
  .describe('A message');

const messages = z.array(Message).max(5000);
const key = z
  .string()
  .min(1)
  .max(200)
  .optional()
  .describe('Same key again: the first answer, nothing written');
const count = z
  .number()
  .int()
  .min(0)
  .optional()
  .describe('Write only if the thread has exactly this many messages now');

const threadFields = {
  title: z.string().max(300).optional(),
  source: z.string().max(100).optional().describe('Your app: claude-code, codex, cursor, …'),
  source_app: z.string().max(100).optional(),
  project: z.string().max(4096).optional().describe('Working directory the conversation is about'),
  cwd: z.string().max(4096).optional(),
  workspace: z.string().max(4096).optional(),
  space: z.string().max(64).optional().describe('Space (default "default")'),
  space_id: z.string().max(64).optional(),
  metadata: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('Any JSON object (64,000 characters at most)'),
  messages,
  idempotency_key: key,
};

export const ImportBody = z.strictObject({
  id: z.string().min(1).max(200).optional().describe('Thread id (default: a new UUID)'),
  thread_id: z.string().min(1).max(200).optional(),
  ...threadFields,
  merge: z
    .boolean()
    .optional()
    .describe('If the thread exists, add the messages it lacks instead of a CONFLICT'),
});

export const SaveBody = z.strictObject({
  ...threadFields,
  expected_message_count: count,
  deduplicate: z.boolean().optional().describe('Skip messages already saved (default true)'),
});

export const AppendBody = z.union([
  z.strictObject({
    messages,
    expected_message_count: count,
    idempotency_key: key,
    deduplicate: z.boolean().optional(),
  }),
  messages,
]);

export const ReconcileBody = z.strictObject({
  matched_count: z
    .number()
    .int()
    .min(0)
    .describe('How many leading messages still match what the client has'),
  messages: messages.describe('The new tail, replacing every message after the first matched_count'),
});

export const HandoffBody = z.strictObject({ title: z.string().max(300).optional() });

const IdParams = z.object({ id: z.string().min(1).max(200).describe('Saved thread id') });

export function registerSavedThreadRoutes({ app, registry, threadBodyLimit }: RoutesContext): void {
  const tag = 'saved threads';
  const header = (c: { req: { header(n: string): string | undefined } }) =>
    c.req.header('idempotency-key') || undefined;

  addRoute(app, registry, {
    method: 'post',
    path: '/v1/saved-threads',
    tag,
    summary: 'Save a conversation (201 when created); an Idempotency-Key header works like idempotency_key',
    body: ImportBody,
    bodyLimit: threadBodyLimit,
    status: 201,
    returns: '{success, thread_id, created, messages_added, messages_skipped, total_messages, replayed}',
    handler({ c, engine, body }) {
      const input = { ...importInputFrom(body), merge: body.merge };
      input.idempotencyKey ??= header(c);
      const r = engine.savedThreads.import(input);
      return c.json(r, r.created ? 201 : 200);
    },
  });

  addRoute(app, registry, {
    method: 'put',
    path: '/v1/saved-threads/:id',
    tag,
    summary: 'Import, or append when the thread exists (decided in one transaction)',
    params: IdParams,
    body: SaveBody,
    bodyLimit: threadBodyLimit,
    handler({ c, engine, params, body }) {
      const input = importInputFrom({ ...body, id: params.id });
      input.idempotencyKey ??= header(c);
      const r = engine.savedThreads.save({
        ...input,
        expectedMessageCount: body.expected_message_count,
        deduplicate: body.deduplicate,
      });
      return c.json(r, r.created ? 201 : 200);
    },
  });

  addRoute(app, registry, {
    method: 'post',
    path: '/v1/saved-threads/:id/messages',
    tag,
    summary: 'Append messages; a wrong expected_message_count is a CONFLICT and writes nothing',
    params: IdParams,
    body: AppendBody,
    bodyLimit: threadBodyLimit,
    handler({ c, engine, params, body }) {
      const input = appendInputFrom(params.id, body);
      input.idempotencyKey ??= header(c);
      return engine.savedThreads.append(input);
    },
  });

  addRoute(app, registry, {
    method: 'post',
    path: '/v1/saved-threads/:id/reconcile',
    tag,
    summary: 'Keep the first matched_count messages and replace the rest with a new tail',
    params: IdParams,
    body: ReconcileBody,
    bodyLimit: threadBodyLimit,
    handler: ({ engine, params, body }) => engine.savedThreads.reconcile(reconcileInputFrom(params.id, body)),
  });

  addRoute(app, registry, {
    method: 'get',
    path: '/v1/saved-threads',
    tag,
    summary: 'Saved threads, most recently changed first',
    query: z.object({ limit: qInt(1, 1000, 'How many (default 50)'), offset: qInt(0, 1_000_000) }),
    returns: '{threads}',
    handler: ({ engine, query }) => ({ threads: engine.savedThreads.list(query) }),
  });

  addRoute(app, registry, {
    method: 'get',
    path: '/v1/saved-threads/:id',
    tag,
    summary: 'A saved thread with its app, metadata and messages',
    params: IdParams,
    query: z.object({
      from: qInt(0, 100_000_000, 'First message (0-based)'),
      limit: qInt(1, 10_000, 'Messages (default 1000)'),
    }),
    handler: ({ engine, params, query }) => engine.savedThreads.get(params.id, query),
  });

  addRoute(app, registry, {
    method: 'post',
    path: '/v1/threads/:id/handoff',
    tag,
    summary:
      'Build a Goal/Decisions/Files/Risks/Next handoff of a session, save it as a thread and return it',
    params: z.object({ id: z.string().min(1).max(400) }),
    body: HandoffBody,
    bodyOptional: true,
    status: 201,
    returns: '{id, title, source_thread, total_messages, sections, markdown}',
    handler: ({ engine, params, body }) =>
      engine.savedThreads.handoff({ thread: params.id, title: body.title }),
  });
}
