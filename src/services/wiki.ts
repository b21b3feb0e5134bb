/**
 * Wiki: free Markdown pages a person or agent writes (architecture notes, runbooks, glossaries),
 * addressed by a relative path per space, versioned, searchable. The fs layer mounts them at
 * `/wiki` through `list`, `read`, `write`, `remove` and `search`.
 *
 * Decisions: `remove` is a tombstone — the page leaves lists, reads and search, its versions stay
 * readable (`read(path, {version})`), and writing the path again revives it as a new version.
 * Writing the same text again is a no-op (no new version). Paths get `.md` appended when missing.
 * The store is async (storage/wiki-store.ts, both backends), so every method answers a promise.
 */
import { invalidInput, notFound, TapedeckError } from '../core/errors.js';
import { parseQuery } from '../core/query.js';
import { redact } from '../core/redact.js';
import { normalizeWikiPath, normalizeWikiPrefix, wikiTitle } from '../core/wiki-path.js';
import type { WikiPageRow, WikiStore } from '../ports/wiki-store.js';

export const MAX_WIKI_CONTENT = 512 * 1024;

export interface WikiScope {
  space?: string;
  /** The caller's working directory (CLI), used for the per-project default space. */
  cwd?: string;
}

export interface WikiDeps {
  store: WikiStore;
  resolveSpace: (scope: WikiScope) => string;
  now?: () => number;
}

export interface WikiPageSummary {
  path: string;
  title: string;
  version: number;
  chars: number;
  updated_at: string;
}

export interface WikiPage extends WikiPageSummary {
  space: string;
  content: string;
  /** The version shown (the current one unless another was asked for). */
  shown_version: number;
  created_at: string;
  /** Set when reading a version of a removed page. */
  removed_at: string | null;
}

export interface WikiWriteResult {
  path: string;
  title: string;
  version: number;
  status: 'created' | 'updated' | 'unchanged' | 'restored';
  redactions: number;
}

export interface WikiHit {
  path: string;
  title: string;
  snippet: string;
  score: number;
  updated_at: string;
}

const summaryOf = (p: WikiPageRow): WikiPageSummary => ({
  path: p.path,
  title: p.title,
  version: p.version,
  chars: p.content.length,
  updated_at: p.updatedAt,
});

export function createWikiService({ store, resolveSpace, now = Date.now }: WikiDeps) {
  const iso = () => new Date(now()).toISOString();

  async function live(space: string, path: string): Promise<WikiPageRow> {
    const page = await store.get(space, path);
    if (!page)
      throw notFound(`No wiki page ${path} in space ${space}; list pages with \`tapedeck wiki list\``);
    if (page.deletedAt)
      throw notFound(
        `The wiki page ${path} was removed at ${page.deletedAt}; write it again to restore it, or read an old version with --version`,
      );
    return page;
  }

  return {
    /** Live pages under a folder (`''` for all), by path. */
    async list(prefix?: string, scope: WikiScope = {}): Promise<WikiPageSummary[]> {
      return (await store.list(resolveSpace(scope), normalizeWikiPrefix(prefix))).map(summaryOf);
    },

    /** Live pages under a folder with their text, by path (the fs mount's files, from one read). */
    async pages(prefix?: string, scope: WikiScope = {}): Promise<(WikiPageSummary & { content: string })[]> {
      return (await store.list(resolveSpace(scope), normalizeWikiPrefix(prefix))).map((p) => ({
        ...summaryOf(p),
        content: p.content,
      }));
    },

    /** A page's current text, or an earlier version's (also of a removed page). */
    async read(path: string, opts: WikiScope & { version?: number } = {}): Promise<WikiPage> {
      const space = resolveSpace(opts);
      const p = normalizeWikiPath(path);
      if (opts.version === undefined) {
        const page = await live(space, p);
        return {
          ...summaryOf(page),
          space,
          content: page.content,
          shown_version: page.version,
          created_at: page.createdAt,
          removed_at: null,
        };
      }
      const page = await store.get(space, p);
      if (!page) throw notFound(`No wiki page ${p} in space ${space}`);
      const v = Number.isInteger(opts.version) ? await store.version(page.id, opts.version) : undefined;
      if (!v) throw notFound(`The wiki page ${p} has versions 1 to ${page.version}, not ${opts.version}`);
      return {
        ...summaryOf(page),
        title: v.title,
        chars: v.content.length,
        space,
        content: v.content,
        shown_version: v.version,
        created_at: page.createdAt,
        removed_at: page.deletedAt,
      };
    },

    /**
     * Create or replace a page (redacted; title from its first heading). `expectedVersion` makes
     * the write conditional: CONFLICT unless the live page is at that version (0 = must not exist).
     */
    async write(
      path: string,
      content: string,
      opts: WikiScope & { expectedVersion?: number } = {},
    ): Promise<WikiWriteResult> {
      const space = resolveSpace(opts);
      const p = normalizeWikiPath(path);
      if (typeof content !== 'string' || content.trim() === '')
        throw invalidInput(`The wiki page ${p} is empty`);
      if (content.length > MAX_WIKI_CONTENT)
        throw invalidInput(`The wiki page ${p} is ${content.length} characters; at most ${MAX_WIKI_CONTENT}`);
      const r = redact(content);
      const title = wikiTitle(p, r.text);
      return store.write(async (w): Promise<WikiWriteResult> => {
        const page = await w.get(space, p);
        const liveVersion = page && !page.deletedAt ? page.version : 0;
        if (opts.expectedVersion !== undefined && opts.expectedVersion !== liveVersion)
          throw new TapedeckError(
            'CONFLICT',
            `The wiki page ${p} is at version ${liveVersion}, not ${opts.expectedVersion}; read it again before writing`,
            { version: liveVersion },
          );
        const at = iso();
        if (!page) {
          const id = await w.insertPage({
            space,
            path: p,
            title,
            content: r.text,
            version: 1,
            createdAt: at,
            updatedAt: at,
            deletedAt: null,
          });
          await w.insertVersion(id, { version: 1, title, content: r.text, createdAt: at });
          return { path: p, title, version: 1, status: 'created', redactions: r.redactions };
        }
        if (!page.deletedAt && page.content === r.text)
          return {
            path: p,
            title: page.title,
            version: page.version,
            status: 'unchanged',
            redactions: r.redactions,
          };
        const version = page.version + 1;
        await w.updatePage(page.id, { title, content: r.text, version, updatedAt: at });
        await w.insertVersion(page.id, { version, title, content: r.text, createdAt: at });
        return {
          path: p,
          title,
          version,
          status: page.deletedAt ? 'restored' : 'updated',
          redactions: r.redactions,
        };
      });
    },

    /** Remove a page (a tombstone: its versions stay readable; writing it again restores it). */
    async remove(path: string, scope: WikiScope = {}) {
      const space = resolveSpace(scope);
      const p = normalizeWikiPath(path);
      return store.write(async (w) => {
        const page = await w.get(space, p);
        if (!page || page.deletedAt) throw notFound(`No wiki page ${p} in space ${space}`);
        await w.markDeleted(page.id, iso());
        return { path: p, removed: true, version: page.version };
      });
    },

    /** Every version of a page (also of a removed one), oldest first. */
    async history(path: string, scope: WikiScope = {}) {
      const space = resolveSpace(scope);
      const p = normalizeWikiPath(path);
      const page = await store.get(space, p);
      if (!page) throw notFound(`No wiki page ${p} in space ${space}`);
      return {
        path: p,
        removed_at: page.deletedAt,
        versions: (await store.versions(page.id)).map((v) => ({
          version: v.version,
          title: v.title,
          chars: v.content.length,
          created_at: v.createdAt,
        })),
      };
    },

    /** Full-text search over live pages (title, path, text), best first, optionally under a folder. */
    async search(
      query: string,
      opts: WikiScope & { prefix?: string; limit?: number } = {},
    ): Promise<{ query: string; hits: WikiHit[] }> {
      if (typeof query !== 'string' || query.trim() === '') throw invalidInput('The query is empty');
      if (query.length > 2000) throw invalidInput('The query is over 2,000 characters');
      const limit = opts.limit ?? 10;
      if (!Number.isInteger(limit) || limit < 1 || limit > 100)
        throw invalidInput('limit must be between 1 and 100');
      const space = resolveSpace(opts);
      const rows = await store.search(parseQuery(query), space, normalizeWikiPrefix(opts.prefix), limit);
      return {
        query,
        hits: rows.map((r) => ({
          path: r.page.path,
          title: r.page.title,
          snippet: r.snippet,
          score: Number(r.bm25.toPrecision(4)),
          updated_at: r.page.updatedAt,
        })),
      };
    },
  };
}

export type WikiService = ReturnType<typeof createWikiService>;
