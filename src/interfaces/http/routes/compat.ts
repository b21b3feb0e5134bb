/**
 * Nowledge Mem compatibility: the paths and bodies Nowledge Mem's agent plugins send, answered in
 * the shapes those plugins act on, mapped onto Tapedeck's own services through the same auth and
 * per-key engine view as /v1 (so a plugin pointed at Tapedeck works unchanged). Keys come as
 * `Authorization: Bearer` or `X-NMEM-API-Key` (auth.ts).
 *
 * Context, working memory and memories are here; threads in compat-threads.ts; the shared error
 * shape and name mappings in compat-shared.ts.
 *
 * Rules every answer follows (see docs/http.md, "Nowledge Mem compatibility"):
 * - The plugins treat anything but 200/201 as failure without reading the body, and a 2xx body
 *   with an `error` key as failure too: no success body here has an `error` key.
 * - Errors keep Tapedeck's `{"error": {code, message, details}}` and add the flat fields other
 *   clients read: `error_code` (snake case, the specific reason when there is one:
 *   `checkpoint_conflict`, `thread_not_found`, …), `detail` (the message) and `status`.
 * - Bodies are loose: fields Tapedeck does not know are ignored, not a 400.
 * - Nowledge space names are mapped to Tapedeck's (lowercase, dashes: "Work Notes" → `work-notes`).
 */
import { z } from 'zod';
import type { Engine } from '../../../app/engine.js';
import { isUnitType } from '../../../core/memory.js';
import type { RoutesContext } from '../context.js';
import { addCompatRoute, compatAgent, compatSpace, guarded } from './compat-shared.js';
import { registerCompatThreadRoutes } from './compat-threads.js';

const spaceQuery = {
  space: z.string().max(200).optional().describe('Nowledge space name (mapped to a Tapedeck space)'),
  space_id: z.string().max(200).optional(),
};

/** A working-memory briefing with anything in it (generated items or a person's edit). */
async function hasSubstance(engine: Engine, space: string | undefined) {
  const wm = await engine.workingMemory.read({ space });
  return { wm, exists: wm.sections.some((s) => s.edited || s.items.length > 0) };
}

function registerBriefingRoutes({ app, registry }: RoutesContext): void {
  addCompatRoute(app, registry, {
    method: 'get',
    path: '/context',
    summary: 'Nowledge: the context bundle as {rendered_markdown, markdown, content}',
    query: z.object({
      source_app: z
        .string()
        .max(100)
        .optional()
        .describe('google-antigravity, claude-code, codex, gemini-cli'),
      ...spaceQuery,
      project: z.string().max(4096).optional().describe('Absolute project directory'),
      budget: z.coerce.number().int().min(100).max(100_000).optional().describe('Tokens (default 1500)'),
    }),
    returns: '{rendered_markdown, markdown, content, source_app, agent, space, tokens, date}',
    handler: ({ c, engine, query }) =>
      guarded(c, async () => {
        const b = await engine.contextBundle.build({
          agent: compatAgent(query.source_app),
          space: compatSpace(query.space ?? query.space_id),
          project: query.project || undefined,
          budget: query.budget,
        });
        return {
          rendered_markdown: b.markdown,
          markdown: b.markdown,
          content: b.markdown,
          source_app: query.source_app ?? null,
          agent: b.agent,
          space: b.space,
          tokens: b.tokens,
          date: b.date,
        };
      }),
  });

  addCompatRoute(app, registry, {
    method: 'get',
    path: '/working-memory',
    summary: "Nowledge: today's working-memory briefing as {content}",
    query: z.object(spaceQuery),
    returns: '{content, date, space}',
    handler: ({ c, engine, query }) =>
      guarded(c, async () => {
        const wm = await engine.workingMemory.read({ space: compatSpace(query.space ?? query.space_id) });
        return { content: wm.markdown, date: wm.date, space: wm.space };
      }),
  });

  addCompatRoute(app, registry, {
    method: 'get',
    path: '/agent/working-memory',
    summary: 'Nowledge: {exists, content, date}; exists is false (content "") when the briefing is empty',
    query: z.object(spaceQuery),
    returns: '{exists, content, date, space}',
    handler: ({ c, engine, query }) =>
      guarded(c, async () => {
        const { wm, exists } = await hasSubstance(engine, compatSpace(query.space ?? query.space_id));
        return { exists, content: exists ? wm.markdown : '', date: wm.date, space: wm.space };
      }),
  });
}

/** Nowledge labels as Tapedeck labels: lowercase, no spaces (`Bug Fix` → `bug-fix`). */
function compatLabels(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  const raw = (Array.isArray(value) ? value : [value]).flatMap((l) => String(l).split(','));
  const out = raw
    .map((l) =>
      l
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}_.:/+#-]+/gu, '-')
        .replace(/^[^\p{L}\p{N}]+/u, '')
        .replace(/-+$/, '')
        .slice(0, 64),
    )
    .filter((l) => l !== '');
  return [...new Set(out)].slice(0, 32);
}

function compatImportance(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
  return Number.isFinite(n) ? Math.max(0, Math.min(1, n)) : undefined;
}

const clip = (s: string | undefined, max: number) =>
  s === undefined || s.length <= max ? s : `${s.slice(0, max - 1)}…`;

export const CompatMemoryBody = z.looseObject({
  content: z.string().min(1).max(20_000).describe('The memory'),
  title: z.string().max(2000).optional(),
  importance: z.union([z.number(), z.string()]).optional().describe('0–1 (clamped)'),
  labels: z.union([z.array(z.string().max(200)).max(100), z.string().max(2000)]).optional(),
  source: z.string().max(2000).optional().describe('Where it came from (kept as provenance source)'),
  source_thread_id: z
    .string()
    .max(400)
    .optional()
    .describe('Provenance thread, when this server has that thread (else ignored)'),
  unit_type: z.string().max(40).optional(),
  space: z.string().max(200).optional(),
  space_id: z.string().max(200).optional(),
});

export const CompatSearchBody = z.looseObject({
  query: z.string().min(1).max(2000),
  limit: z.coerce.number().int().min(1).max(100).optional(),
  space: z.string().max(200).optional(),
  space_id: z.string().max(200).optional(),
  labels: z.union([z.array(z.string().max(200)).max(100), z.string().max(2000)]).optional(),
  all_spaces: z.boolean().optional(),
});

function registerMemoryRoutes({ app, registry }: RoutesContext): void {
  addCompatRoute(app, registry, {
    method: 'post',
    path: '/memories',
    summary: 'Nowledge: add a memory → {memory} (201; 200 when the same memory existed)',
    body: CompatMemoryBody,
    status: 201,
    returns: '{memory, deduplicated}',
    handler: ({ c, engine, body }) =>
      guarded(c, () => {
        const ref = body.source_thread_id?.trim();
        const thread = ref && engine.store.getThread(ref) ? ref : undefined;
        const type = body.unit_type?.trim().toLowerCase();
        const m = engine.memories.add({
          content: body.content,
          title: clip(body.title?.trim() || undefined, 200),
          importance: compatImportance(body.importance),
          labels: compatLabels(body.labels),
          type: type && isUnitType(type) ? type : undefined,
          source: body.source?.trim() || undefined,
          thread,
          space: compatSpace(body.space ?? body.space_id),
        });
        const { deduplicated, match: _m, similarity: _s, ...memory } = m;
        return c.json({ memory, deduplicated }, deduplicated ? 200 : 201);
      }),
  });

  addCompatRoute(app, registry, {
    method: 'post',
    path: '/memories/search',
    summary: 'Nowledge: search memories → [{memory, similarity_score}], best first',
    body: CompatSearchBody,
    need: 'read',
    returns: '[{memory, similarity_score}]',
    handler: ({ c, engine, body }) =>
      guarded(c, () => {
        const r = engine.memories.search(body.query, {
          limit: body.limit,
          space: compatSpace(body.space ?? body.space_id),
          labels: compatLabels(body.labels),
          allSpaces: body.all_spaces,
        });
        // Tapedeck's score is an unbounded relevance; s/(1+s) keeps the order and lies in (0, 1).
        return r.hits.map(({ score, ...memory }) => ({
          memory,
          similarity_score: Number((score / (1 + score)).toFixed(4)),
        }));
      }),
  });
}

/** Every compatibility path (after auth; /livez, /health and /mcp/ are Tapedeck's own routes). */
export function registerCompatRoutes(ctx: RoutesContext): void {
  registerBriefingRoutes(ctx);
  registerMemoryRoutes(ctx);
  registerCompatThreadRoutes(ctx);
}
