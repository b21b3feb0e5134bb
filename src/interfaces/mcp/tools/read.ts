/**
 * `read`: open what `recall` (or any Tapedeck link) points to, one level deeper — the steps
 * around a hit, a page of a whole thread, a memory in full, or a file or folder of the tree.
 */
import { z } from 'zod';
import type { Engine } from '../../../app/engine.js';
import { MEMORY_LINK_PREFIX, memoryRef, THREAD_LINK_PREFIX, threadRef } from '../../../core/memory.js';
import { LEAN_READ } from '../annotations.js';
import { renderMemory, renderSteps } from '../render.js';
import type { Guard } from '../server.js';
import type { ToolRegistrar } from '../tool-list.js';
import { openPath } from './fs.js';
import { int, reply, str } from './shared.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Characters of one step's text shown; the rest is a window or page away. */
const STEP_CHARS = 3000;

export function registerReadTool(server: ToolRegistrar, engine: Engine, guard: Guard): void {
  server.registerTool(
    'read',
    {
      description:
        'After recall, open a hit in full: tapedeck://thread/<id>#<step> (steps around it), a thread id (page: from), tapedeck://memory/<id>, or a path like /wiki/x.md.',
      inputSchema: {
        ref: str(1024),
        window: int(0, 20).optional().describe('Steps each side (3)'),
        from: int(0, 1e9).optional(),
        limit: int(1, 100).optional(),
      },
      outputSchema: { link: z.string(), next: z.number().nullable() },
      annotations: LEAN_READ,
    },
    guard(async ({ ref, window = 3, from, limit = 20 }) => {
      const r = ref.trim();
      if (r.startsWith(MEMORY_LINK_PREFIX) || UUID.test(r)) {
        const m = engine.memories.get(memoryRef(r));
        return reply(renderMemory(m), { link: m.link, next: null });
      }
      if (r.startsWith('/') || (r.startsWith('tapedeck://') && !r.startsWith(THREAD_LINK_PREFIX))) {
        const lines = from !== undefined ? `${from + 1}-${from + limit}` : undefined;
        const p = await openPath(engine.fs, r, lines);
        return reply(p.text, { link: p.path, next: null });
      }
      const { thread, step } = threadRef(r);
      const s = engine.transcripts.show({
        thread,
        step,
        window,
        from,
        limit,
        maxChars: STEP_CHARS,
      });
      return reply(renderSteps(s.thread, s.steps, s.next), {
        link: `${THREAD_LINK_PREFIX}${s.thread.id}`,
        next: s.next,
      });
    }),
  );
}
