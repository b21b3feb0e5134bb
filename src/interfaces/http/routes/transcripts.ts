/** Indexed transcripts: search, list and read threads, index, status. */
import { z } from 'zod';
import type { RoutesContext } from '../context.js';
import { addRoute } from '../route.js';
import { qBool, qInt, qList } from './schemas.js';

const filters = {
  agent: qList('Only these agents: antigravity, claude-code, codex, gemini-cli (repeat or comma-separate)'),
  project: z.string().max(4096).optional().describe('Only sessions in this directory or below it'),
  since: z.string().max(64).optional().describe('From this date: YYYY-MM-DD, ISO time, or a span like 7d'),
  until: z.string().max(64).optional().describe('Up to this date (inclusive)'),
};

export const SearchQuery = z.object({
  q: z.string().min(1).max(2000).describe('A question or keywords ("quoted phrase", prefix*, -exclude)'),
  ...filters,
  role: qList('Only steps by these roles: user, assistant, tool, system'),
  thread: z.string().max(300).optional().describe('Only inside this thread'),
  limit: qInt(1, 100, 'Hits (default 10)'),
  explain: qBool(
    'Each hit\'s ranking components (the web page\'s "why this hit"; `tapedeck search --explain`)',
  ),
  meaning: qBool(
    'false: by words alone (`tapedeck search --no-meaning`). Default: closeness in meaning counts where steps have vectors (`tapedeck embed`) and the words leave part of the question unexplained',
  ),
});

export const ThreadsQuery = z.object({
  ...filters,
  limit: qInt(1, 1000, 'How many (default 20)'),
  offset: qInt(0, 1_000_000, 'Skip this many'),
});

export const ShowQuery = z.object({
  step: z.coerce.number().int().optional().describe('Centre on this step'),
  window: qInt(0, 50, 'Steps on each side of step (default 3)'),
  from: z.coerce.number().int().optional().describe('Paging: first step (default 0)'),
  limit: qInt(1, 500, 'Paging: steps per page (default 50)'),
  max_chars: qInt(1, 1_000_000, 'Cap each step text (default 4000)'),
});

export const IndexBody = z.strictObject({
  agents: z.array(z.string()).max(10).optional().describe('Only these agents'),
  full: z.boolean().optional().describe('Re-read every file from the start'),
});

const ThreadParams = z.object({
  id: z.string().min(1).max(300).describe('Thread id, e.g. claude-code:<session id>'),
});

export function registerTranscriptRoutes(ctx: RoutesContext): void {
  const { app, registry } = ctx;

  addRoute(app, registry, {
    method: 'get',
    path: '/v1/search',
    tag: 'transcripts',
    summary: 'Search past agent sessions (the same JSON as `tapedeck search --json`)',
    query: SearchQuery,
    returns:
      '{query, took_ms, hits: [{thread, agent, project, title, step, role, kind, timestamp, snippet, score, source: {path, line}}]}',
    async handler({ engine, query: { q, ...f } }) {
      ctx.fresh();
      return engine.transcripts.search(q, f);
    },
  });

  addRoute(app, registry, {
    method: 'get',
    path: '/v1/threads',
    tag: 'transcripts',
    summary: 'Threads, most recent first (`tapedeck threads --json`)',
    query: ThreadsQuery,
    returns: '{threads: [...]}',
    handler({ engine, query }) {
      ctx.fresh();
      return { threads: engine.transcripts.threads(query) };
    },
  });

  addRoute(app, registry, {
    method: 'get',
    path: '/v1/threads/:id',
    tag: 'transcripts',
    summary: 'Steps of a thread: a window around `step`, or a page from `from` (`tapedeck show --json`)',
    params: ThreadParams,
    query: ShowQuery,
    returns: '{thread, steps, next}',
    handler({ engine, params, query: { max_chars, ...q } }) {
      ctx.fresh();
      return engine.transcripts.show({ thread: params.id, ...q, maxChars: max_chars });
    },
  });

  addRoute(app, registry, {
    method: 'post',
    path: '/v1/index',
    tag: 'transcripts',
    summary: 'Index new and changed transcripts on the server machine (`tapedeck index --json`)',
    body: IndexBody,
    bodyOptional: true,
    returns: 'The index summary',
    handler({ engine, body }) {
      const r = engine.transcripts.index(body);
      ctx.indexed(Date.now());
      return r;
    },
  });

  addRoute(app, registry, {
    method: 'get',
    path: '/v1/status',
    tag: 'transcripts',
    summary: 'Counts per agent and the size of the store (`tapedeck stats --json`)',
    returns: '{threads, steps, files, issues, per_agent, db_bytes, path}',
    handler: ({ engine }) => engine.stats(),
  });
}
