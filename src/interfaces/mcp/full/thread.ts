/**
 * MCP tools for saved threads: thread_save (import or idempotent append) and thread_handoff.
 * Reading a saved thread goes through get_steps and search_conversations, like any session.
 */
import { z } from 'zod';
import type { Engine } from '../../../app/engine.js';
import { WRITE } from '../annotations.js';
import type { Guard } from '../server.js';
import type { ToolRegistrar } from '../tool-list.js';

const message = z.object({
  role: z.enum(['user', 'assistant', 'system', 'tool']),
  content: z.string().min(1).describe('The message text'),
  timestamp: z.string().optional().describe('ISO 8601 time of the message (default: now)'),
  external_id: z
    .string()
    .max(200)
    .optional()
    .describe(
      'Your stable id for the message (native uuid, step index): a message whose id is already saved is skipped',
    ),
});

export function registerSavedThreadsTools(server: ToolRegistrar, engine: Engine, guard: Guard): void {
  server.registerTool(
    'thread_save',
    {
      title: 'Save a conversation',
      description:
        'Save a conversation into Tapedeck so later sessions can find it with search_conversations and read it with get_steps. Call it to keep a chat that has no transcript Tapedeck indexes, or to checkpoint the current one. The first call creates the thread (give thread_id to choose its id); later calls with the same thread_id append only the new messages. Retries are safe: messages whose external_id (or, without one, same role and text) is already saved are skipped, and a repeated idempotency_key returns the first answer without writing. Pass expected_message_count to fail instead of writing when the thread is not where you think.',
      inputSchema: {
        thread_id: z
          .string()
          .min(1)
          .max(200)
          .optional()
          .describe('Thread id: new to create it, existing to append'),
        title: z.string().max(300).optional().describe('Title (default: the first user message)'),
        source: z
          .string()
          .max(100)
          .optional()
          .describe('Your app: claude-code, codex, gemini-cli, google-antigravity, or any other name'),
        project: z.string().max(4096).optional().describe('Working directory the conversation is about'),
        space: z.string().max(64).optional().describe('Space (default "default")'),
        messages: z
          .array(message)
          .max(5000)
          .describe('Messages in order; when appending, the new ones (repeats are skipped)'),
        idempotency_key: z
          .string()
          .max(200)
          .optional()
          .describe('Same key again = same answer, nothing written'),
        expected_message_count: z
          .number()
          .int()
          .min(0)
          .optional()
          .describe('Write only if the thread has exactly this many messages now'),
        deduplicate: z.boolean().optional().describe('Skip messages already saved (default true)'),
      },
      annotations: { title: 'Save a conversation', ...WRITE, idempotentHint: true },
    },
    guard(({ thread_id, idempotency_key, expected_message_count, ...rest }) => {
      const r = engine.savedThreads.save({
        ...rest,
        id: thread_id,
        idempotencyKey: idempotency_key,
        expectedMessageCount: expected_message_count,
      });
      const text = r.replayed
        ? `already saved (same idempotency_key): ${r.thread_id}, ${r.total_messages} messages`
        : `${r.created ? 'created' : 'saved'} ${r.thread_id}: +${r.messages_added} messages${r.messages_skipped ? ` (${r.messages_skipped} already there)` : ''}, ${r.total_messages} total`;
      return { content: [{ type: 'text', text }], structuredContent: { ...r } };
    }),
  );

  server.registerTool(
    'thread_handoff',
    {
      title: 'Hand a session off',
      description:
        'Summarize a session into a short handoff (Goal, Decisions, Files, Risks, Next) without an LLM, save it as a thread linked to the session, and return it as Markdown. Call it when stopping work that another agent or a later session will continue, or to brief yourself on a past session found with search_conversations. Items cite step numbers (#N) readable with get_steps.',
      inputSchema: {
        thread: z
          .string()
          .min(1)
          .max(400)
          .describe('Thread id of the session, e.g. claude-code:<session id>'),
        title: z
          .string()
          .max(300)
          .optional()
          .describe('Title of the handoff (default "Handoff: <session title>")'),
      },
      annotations: { title: 'Hand a session off', ...WRITE, idempotentHint: false },
    },
    guard(({ thread, title }) => {
      const r = engine.savedThreads.handoff({ thread, title });
      return { content: [{ type: 'text', text: `${r.markdown}\n\n(saved as ${r.id})` }] };
    }),
  );
}
