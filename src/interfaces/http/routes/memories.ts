/** Memories: add (deduplicated), read, search, list, update, supersede, forget, restore, purge. */
import { z } from 'zod';
import { UNIT_TYPES } from '../../../core/memory.js';
import type { MemoryQueryInput } from '../../../services/memories.js';
import type { RoutesContext } from '../context.js';
import { addRoute } from '../route.js';
import { qBool, qInt, qList, spaceField } from './schemas.js';

const labels = z.array(z.string().max(64)).max(32);
const unit = z.number().min(0).max(1);

const content = {
  title: z.string().max(200).optional().describe('One line (default: the first line of content)'),
  type: z.enum(UNIT_TYPES).optional().describe('Unit type (default fact)'),
  labels: labels.optional(),
  importance: unit.optional().describe('0–1 (default 0.5)'),
  confidence: unit.optional().describe('0–1 (default 1)'),
  project: z.string().max(4096).optional().describe('Absolute project directory it is about'),
  thread: z.string().max(400).optional().describe('Provenance: thread id or tapedeck://thread/<id>#<step>'),
  steps: z.string().max(40).optional().describe('Provenance: step range "A-B" in that thread'),
  source: z.string().max(2000).optional().describe('Provenance: file path or URL'),
  event_start: z.string().max(64).optional().describe('For events: when it happened'),
  event_end: z.string().max(64).optional(),
};

export const MemoryAddBody = z.strictObject({
  content: z.string().min(1).max(20_000).describe('The memory, self-contained'),
  ...content,
  space: spaceField.optional(),
});

export const MemorySupersedeBody = z.strictObject({ content: z.string().min(1).max(20_000), ...content });

export const MemoryPatchBody = z.strictObject({
  ...content,
  content: z.string().min(1).max(20_000).optional(),
  project: z.string().max(4096).nullable().optional().describe('An absolute directory, or null to clear it'),
  event_start: z.string().max(64).nullable().optional(),
  event_end: z.string().max(64).nullable().optional(),
  add_labels: labels.optional(),
  remove_labels: labels.optional(),
});

const queryShape = {
  labels: qList('Only memories with all these labels'),
  type: qList('Only these unit types'),
  project: z.string().max(4096).optional().describe('Only this project directory or below'),
  space: spaceField.optional(),
  all_spaces: qBool('Every space the caller sees'),
  as_of: z.string().max(64).optional().describe('What was valid at this date'),
  since: z.string().max(64).optional(),
  until: z.string().max(64).optional(),
};

export const MemoryListQuery = z.object({
  ...queryShape,
  status: qList('active (default), superseded, forgotten, all'),
  limit: qInt(1, 1000, 'How many (default 50)'),
  offset: qInt(0, 1_000_000),
});

export const MemorySearchQuery = z.object({
  q: z.string().min(1).max(2000).describe('Words or a question'),
  ...queryShape,
  limit: qInt(1, 100, 'Hits (default 10)'),
});

const IdParams = z.object({
  id: z.string().min(1).max(200).describe('Memory id (or tapedeck://memory/<id>)'),
});

type QueryIn = z.output<typeof MemorySearchQuery> | z.output<typeof MemoryListQuery>;
const toQuery = ({ type, all_spaces, as_of, ...rest }: Omit<QueryIn, 'q'>): MemoryQueryInput => ({
  ...rest,
  types: type,
  allSpaces: all_spaces,
  asOf: as_of,
});

/** Snake-case event fields to the service's names (null kept: it clears on update). */
function toContent<T extends { event_start?: E; event_end?: E }, E extends string | null | undefined>({
  event_start,
  event_end,
  ...rest
}: T): Omit<T, 'event_start' | 'event_end'> & { eventStart?: E; eventEnd?: E } {
  return { ...rest, eventStart: event_start, eventEnd: event_end };
}

export function registerMemoryRoutes({ app, registry }: RoutesContext): void {
  const tag = 'memories';

  addRoute(app, registry, {
    method: 'post',
    path: '/v1/memories',
    tag,
    summary: 'Remember something (the same text again returns the existing memory, labels merged)',
    body: MemoryAddBody,
    status: 201,
    returns: 'The memory, with deduplicated (true: 200, an existing one)',
    handler({ c, engine, body }) {
      const m = engine.memories.add(toContent(body));
      return c.json(m, m.deduplicated ? 200 : 201);
    },
  });

  addRoute(app, registry, {
    method: 'get',
    path: '/v1/memories',
    tag,
    summary: 'List memories, most recently updated first',
    query: MemoryListQuery,
    returns: '{memories, next_offset}',
    handler: ({ engine, query: { status, offset, ...q } }) =>
      engine.memories.list({ ...toQuery(q), status, offset }),
  });

  addRoute(app, registry, {
    method: 'get',
    path: '/v1/memories/search',
    tag,
    summary: 'Search memories (text relevance, then importance and recency)',
    query: MemorySearchQuery,
    returns: '{query, took_ms, spaces, hits}',
    handler: ({ engine, query: { q, ...rest } }) => engine.memories.search(q, toQuery(rest)),
  });

  addRoute(app, registry, {
    method: 'get',
    path: '/v1/memories/:id',
    tag,
    summary: 'One memory with what it supersedes',
    params: IdParams,
    handler: ({ engine, params }) => engine.memories.get(params.id),
  });

  addRoute(app, registry, {
    method: 'patch',
    path: '/v1/memories/:id',
    tag,
    summary: 'Change fields of a memory',
    params: IdParams,
    body: MemoryPatchBody,
    handler: ({ engine, params, body: { add_labels, remove_labels, ...rest } }) =>
      engine.memories.update(params.id, {
        ...toContent(rest),
        addLabels: add_labels,
        removeLabels: remove_labels,
      }),
  });

  addRoute(app, registry, {
    method: 'post',
    path: '/v1/memories/:id/supersede',
    tag,
    summary: 'Replace a memory with a new one (the old one stays readable with as_of)',
    params: IdParams,
    body: MemorySupersedeBody,
    status: 201,
    handler: ({ engine, params, body }) => engine.memories.supersede(params.id, toContent(body)),
  });

  addRoute(app, registry, {
    method: 'post',
    path: '/v1/memories/:id/forget',
    tag,
    summary: 'Forget (a tombstone; undo with restore)',
    params: IdParams,
    handler: ({ engine, params }) => engine.memories.forget(params.id),
  });

  addRoute(app, registry, {
    method: 'post',
    path: '/v1/memories/:id/restore',
    tag,
    summary: 'Undo forget',
    params: IdParams,
    handler: ({ engine, params }) => engine.memories.restore(params.id),
  });

  addRoute(app, registry, {
    method: 'delete',
    path: '/v1/memories/:id',
    tag,
    summary: 'Delete for good (a forgotten memory, or any with force=true); admin scope',
    params: IdParams,
    query: z.object({ force: qBool('Purge even when not forgotten') }),
    need: 'admin',
    handler: ({ engine, params, query }) => engine.memories.purge(params.id, { force: query.force }),
  });
}
