/**
 * `threads`: write conversations into Tapedeck. save keeps a chat Tapedeck does not index (or
 * checkpoints this one; appending to the same id skips messages already saved); handoff turns a
 * session into a short Goal / Decisions / Files / Risks / Next note for whoever continues.
 * Listing recent sessions is `recall` without a query; reading one is `read`.
 */
import { z } from 'zod';
import type { Engine } from '../../../app/engine.js';
import { invalidInput } from '../../../core/errors.js';
import { threadLink, threadRef } from '../../../core/memory.js';
import { LEAN_WRITE } from '../annotations.js';
import type { Guard } from '../server.js';
import type { ToolRegistrar } from '../tool-list.js';
import { reply, str } from './shared.js';

const message = z.object({
  role: z.enum(['user', 'assistant', 'system', 'tool']),
  content: str(1_000_000),
});

export function registerThreadsTool(server: ToolRegistrar, engine: Engine, guard: Guard): void {
  server.registerTool(
    'threads',
    {
      description:
        'When stopping work someone will continue: handoff (thread) saves a Goal/Decisions/Files/Risks/Next note. save (messages; thread to append) keeps any other chat.',
      inputSchema: {
        action: z.enum(['handoff', 'save']),
        thread: str(400).optional(),
        title: str(300).optional(),
        messages: z.array(message).optional(),
      },
      outputSchema: { link: z.string() },
      annotations: LEAN_WRITE,
    },
    guard(({ action, thread, title, messages }) => {
      if (action === 'handoff') {
        if (!thread) throw invalidInput('handoff needs thread (the session id or its link)');
        const r = engine.savedThreads.handoff({ thread: threadRef(thread).thread, title });
        return reply(`${r.markdown}\n\n(saved as ${threadLink(r.id)})`, { link: threadLink(r.id) });
      }
      if (!messages?.length) throw invalidInput('save needs messages');
      const r = engine.savedThreads.save({ id: thread, title, messages });
      const text = `${r.created ? 'created' : 'saved'} ${r.thread_id}: +${r.messages_added} messages${r.messages_skipped ? ` (${r.messages_skipped} already there)` : ''}, ${r.total_messages} total`;
      return reply(text, { link: threadLink(r.thread_id) });
    }),
  );
}
