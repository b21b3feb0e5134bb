/**
 * `recall`: search past sessions and saved memories in one call, or list recent sessions when
 * there is no query. Hits are compact (a thread's title and date once, one short line a hit, each
 * with the link `read` expands); ranking is the search service's, unchanged.
 */
import { z } from 'zod';
import type { Engine } from '../../../app/engine.js';
import { memoryLink, threadLink } from '../../../core/memory.js';
import { LEAN_READ } from '../annotations.js';
import { renderMemoryHits, renderStepHits, renderThreads } from '../render.js';
import type { Guard } from '../server.js';
import type { ToolRegistrar } from '../tool-list.js';
import { int, projectArg, projectPath, reply, str } from './shared.js';

const hit = z.object({ link: z.string(), path: z.string().optional(), line: z.number().optional() });

export function registerRecallTool(server: ToolRegistrar, engine: Engine, guard: Guard): void {
  server.registerTool(
    'recall',
    {
      description:
        'Search past agent sessions and saved memories before redoing work or when the user mentions earlier work. Words, "phrase", prefix*, -exclude. No query: recent sessions. Expand a hit with read.',
      inputSchema: {
        query: str(2000).optional(),
        in: z.enum(['all', 'sessions', 'memories']).optional(),
        project: projectArg,
        since: str(40).optional().describe('Date or 7d'),
        limit: int(1, 50).optional().describe('Default 8'),
      },
      outputSchema: { hits: z.array(hit) },
      annotations: LEAN_READ,
    },
    guard(async ({ query, in: where = 'all', project, since, limit = 8 }) => {
      const dir = projectPath(project);
      if (!query?.trim()) {
        const threads = engine.transcripts.threads({ project: dir, since, limit });
        const text = threads.length ? renderThreads(threads).join('\n') : noThreads(engine, !!(dir || since));
        return reply(text, { hits: threads.map((t) => ({ link: threadLink(t.id) })) });
      }
      const lines: string[] = [];
      const hits: z.infer<typeof hit>[] = [];
      if (where !== 'memories') {
        // The agent's working folder: its project's sessions get a prior (not a filter).
        const r = await engine.transcripts.search(query, { project: dir, since, limit, cwd: process.cwd() });
        if (r.hits.length) lines.push(...renderStepHits(r.hits));
        for (const h of r.hits)
          hits.push({ link: threadLink(h.thread, h.step), path: h.source.path, line: h.source.line });
      }
      if (where !== 'sessions') {
        const r = engine.memories.search(query, { project: dir, since, limit, cwd: process.cwd() });
        if (r.hits.length) lines.push('Memories:', ...renderMemoryHits(r.hits));
        for (const m of r.hits) hits.push({ link: memoryLink(m.id) });
      }
      const text = lines.length
        ? lines.join('\n')
        : `Nothing matches "${query}". Try other words or fewer filters.`;
      return reply(text, { hits });
    }),
  );
}

/** Why a listing is empty: nothing indexed at all, or nothing under these filters. */
function noThreads(engine: Engine, filtered: boolean): string {
  if (filtered && engine.stats().threads > 0) return 'No sessions match these filters.';
  return 'No sessions indexed yet.';
}
