/**
 * `/threads`: every conversation Tapedeck holds (indexed transcripts and saved threads) as Markdown,
 * one step per `## #<step> role/kind · time · line` section, by id, by agent and by start date
 * (UTC). Like `tapedeck threads` and `tapedeck search`, threads are not filtered by space (indexed
 * transcripts carry no space of their own); a thread's space shows in its front matter.
 * Read-only: threads change through `tapedeck thread import|append|reconcile`.
 */
import { squash } from '../../core/text.js';
import type { DateGranularity, KnowledgeCatalog } from '../../ports/knowledge-catalog.js';
import type { ThreadRecord, TranscriptStore } from '../../ports/transcript-store.js';
import type { TranscriptService } from '../transcripts.js';
import { renderStep, renderThreadHead } from './render.js';
import {
  type FsDir,
  type FsFile,
  type FsNode,
  idOfFile,
  type Mount,
  pagedDir,
  pathOf,
  staticDir,
} from './tree.js';

const VIEWS = ['by-id', 'by-agent', 'by-date'] as const;
const DATE_PARTS = [/^\d{4}$/, /^(0[1-9]|1[0-2])$/, /^(0[1-9]|[12]\d|3[01])$/];
/** Steps fetched per page while rendering. */
const PAGE = 200;

export interface ThreadsMountDeps {
  store: Pick<TranscriptStore, 'getThread' | 'getSteps' | 'listThreads'>;
  transcripts: Pick<TranscriptService, 'search'>;
  catalog: KnowledgeCatalog;
}

const threadDay = (t: ThreadRecord) => (t.startedAt ?? t.updatedAt ?? '').slice(0, 10);

/** Split rendered text into lines without the trailing empty one a final newline leaves. */
function linesOf(text: string): string[] {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

export function createThreadsMount({ store, transcripts, catalog }: ThreadsMountDeps): Mount {
  const at = (rest: string[]) => pathOf('threads', rest);

  /** Render steps page by page, stopping once `until` lines are produced (Infinity: all). */
  function render(t: ThreadRecord, until: number): { lines: string[]; complete: boolean } {
    const lines = linesOf(renderThreadHead(t));
    let from = 0;
    for (;;) {
      if (lines.length >= until) {
        const more = store.getSteps(t.id, from, Number.MAX_SAFE_INTEGER, 1).length > 0;
        return { lines, complete: !more };
      }
      const steps = store.getSteps(t.id, from, Number.MAX_SAFE_INTEGER, PAGE);
      for (const s of steps) lines.push(...linesOf(renderStep(s)));
      if (steps.length < PAGE) return { lines, complete: true };
      from = steps.at(-1)!.step + 1;
    }
  }

  function file(t: ThreadRecord, folder: string[]): FsFile {
    return {
      kind: 'file',
      name: `${t.id}.md`,
      path: at([...folder, `${t.id}.md`]),
      canonical: at(['by-id', `${t.id}.md`]),
      title: t.title ?? null,
      created_at: t.startedAt ?? null,
      updated_at: t.updatedAt ?? null,
      link: `tapedeck://thread/${t.id}`,
      writable: false,
      size: null,
      info: { agent: t.agent, steps: t.stepCount, project: t.project ?? null, space: t.space },
      read: () => `${render(t, Number.POSITIVE_INFINITY).lines.join('\n')}\n`,
      readLines(from, to) {
        const r = render(t, to);
        return { lines: r.lines.slice(from - 1, to), total: r.complete ? r.lines.length : null };
      },
    };
  }

  const byIds = (ids: string[], folder: string[]) =>
    ids.flatMap((id) => {
      const t = store.getThread(id);
      return t ? [file(t, folder)] : [];
    });

  function dateDir(parts: string[]): FsDir {
    const folder = ['by-date', ...parts];
    if (parts.length === 3)
      return pagedDir({ path: at(folder), name: parts[2], writable: false, view: true }, (offset, limit) =>
        byIds(catalog.threadsOn(parts.join('-'), limit, offset), folder),
      );
    const granularity = [4, 7, 10][parts.length] as DateGranularity;
    return {
      ...staticDir({ path: at(folder), name: folder.at(-1)!, writable: false }, () =>
        catalog.threadDates(parts.join('-'), granularity).map((b) => dateDir(b.key.split('-'))),
      ),
      view: true,
    };
  }

  function resolve(segments: string[]): FsNode | undefined {
    const [view, ...rest] = segments;
    if (view === undefined)
      return staticDir({ path: at([]), name: 'threads', writable: false }, () =>
        VIEWS.map((v) => resolve([v])!),
      );
    const one = (name: string | undefined) => {
      const id = idOfFile(name);
      return id ? store.getThread(id) : undefined;
    };
    if (view === 'by-id') {
      if (rest.length === 0)
        return {
          ...pagedDir({ path: at(['by-id']), name: 'by-id', writable: false }, (offset, limit) =>
            store.listThreads({}, limit, offset).map((t) => file(t, ['by-id'])),
          ),
          count: catalog.threadAgents().reduce((n, b) => n + b.n, 0),
        };
      const t = rest.length === 1 ? one(rest[0]) : undefined;
      return t ? file(t, ['by-id']) : undefined;
    }
    if (view === 'by-agent') {
      const agents = catalog.threadAgents();
      const agentDir = (agent: string, n: number) => ({
        ...pagedDir(
          { path: at(['by-agent', agent]), name: agent, writable: false, view: true },
          (offset, limit) => byIds(catalog.threadsOf(agent, limit, offset), ['by-agent', agent]),
        ),
        count: n,
      });
      if (rest.length === 0)
        return {
          ...staticDir({ path: at(['by-agent']), name: 'by-agent', writable: false }, () =>
            agents.map((b) => agentDir(b.key, b.n)),
          ),
          view: true,
        };
      const bucket = agents.find((b) => b.key === rest[0]);
      if (!bucket) return undefined;
      if (rest.length === 1) return agentDir(bucket.key, bucket.n);
      const t = rest.length === 2 ? one(rest[1]) : undefined;
      return t && t.agent === bucket.key ? file(t, ['by-agent', bucket.key]) : undefined;
    }
    if (view === 'by-date') {
      const dirs = rest.slice(0, 3);
      if (!dirs.every((p, i) => DATE_PARTS[i].test(p))) return undefined;
      if (rest.length <= 3) {
        if (rest.length === 0) return dateDir([]);
        const found = catalog.threadDates(dirs.join('-'), [4, 7, 10][dirs.length - 1] as DateGranularity);
        return found.length ? dateDir(dirs) : undefined;
      }
      const t = rest.length === 4 ? one(rest[3]) : undefined;
      return t && threadDay(t) === dirs.join('-') ? file(t, ['by-date', ...dirs]) : undefined;
    }
    return undefined;
  }

  return {
    name: 'threads',
    description: 'conversations (indexed transcripts and saved threads): by-id, by-agent, by-date',
    writable: null,
    resolve: (segments) => resolve(segments),
    async recall(query, segments, _scope, limit) {
      const [view, ...rest] = segments;
      const filter: { agent?: string; thread?: string; since?: string; until?: string } = {};
      if (view === 'by-agent' && rest[0]) filter.agent = rest[0];
      const last = segments.at(-1);
      if (last?.endsWith('.md')) filter.thread = idOfFile(last) ?? undefined;
      if (view === 'by-date' && rest.length && !filter.thread) {
        const days = rest.slice(0, 3);
        filter.since = [days[0], days[1] ?? '01', days[2] ?? '01'].join('-');
        const end =
          days[2] ?? (days[1] ? String(new Date(Date.UTC(+days[0], +days[1], 0)).getUTCDate()) : '31');
        filter.until = [days[0], days[1] ?? '12', end].join('-');
      }
      // The transcript search knows only the four agents; saved threads from other apps are found unfiltered.
      if (filter.agent === 'other') filter.agent = undefined;
      const r = await transcripts.search(query, { ...filter, limit });
      return r.hits.map((h) => ({
        path: at(['by-id', `${h.thread}.md`]),
        title: `${h.title ?? h.thread} #${h.step} ${h.role}`,
        snippet: squash(h.snippet).slice(0, 240),
        score: h.score,
      }));
    },
  };
}
