/**
 * `/wiki/**`: the space's wiki pages at their own paths, folders made from the paths. Read, write
 * and rm go through the wiki service, so writes are versioned and redacted and rm is a tombstone
 * (writing the page again restores it; old versions stay readable with `tapedeck wiki show --version`).
 */
import { invalidInput, TapedeckError } from '../../core/errors.js';
import type { WikiPageSummary, WikiService } from '../wiki.js';
import { type FsDir, type FsFile, type FsNode, type FsScope, forbidden, type Mount, pathOf } from './tree.js';

export function createWikiMount({ wiki }: { wiki: WikiService }): Mount {
  const at = (rest: string[]) => pathOf('wiki', rest);

  function page(p: WikiPageSummary & { content: string }): FsFile {
    const segments = p.path.split('/');
    return {
      kind: 'file',
      name: segments.at(-1)!,
      path: at(segments),
      title: p.title,
      updated_at: p.updated_at,
      link: `tapedeck://fs${at(segments)}`,
      writable: true,
      size: null,
      info: { version: p.version },
      read: () => p.content,
    };
  }

  /** The folder `prefix` (components) over `pages`, the live pages under it, with their text. */
  function folderOf(prefix: string[], pages: (WikiPageSummary & { content: string })[]): FsDir {
    const base = prefix.join('/');
    const children = (): FsNode[] => {
      const dirs = new Map<string, (WikiPageSummary & { content: string })[]>();
      const out: FsNode[] = [];
      for (const p of pages) {
        const rest = base ? p.path.slice(base.length + 1) : p.path;
        const cut = rest.indexOf('/');
        if (cut === -1) out.push(page(p));
        else {
          const name = rest.slice(0, cut);
          if (!dirs.has(name)) dirs.set(name, []);
          dirs.get(name)!.push(p);
        }
      }
      for (const [name, inside] of dirs) out.push(folderOf([...prefix, name], inside));
      return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    };
    let cached: FsNode[] | undefined;
    return {
      kind: 'dir',
      name: prefix.at(-1) ?? 'wiki',
      path: at(prefix),
      link: `tapedeck://fs${at(prefix)}`,
      writable: false,
      count: null,
      updated_at: pages.reduce<string | null>((m, p) => (m && m > p.updated_at ? m : p.updated_at), null),
      list(offset, limit) {
        cached ??= children();
        return { entries: cached.slice(offset, offset + limit), more: offset + limit < cached.length };
      },
    };
  }

  /**
   * The folder `prefix`, or undefined when no live page is under it. The store is async and a
   * listing is not, so the pages under it (with their text) are read once, when it is resolved.
   */
  async function folder(prefix: string[], scope: FsScope): Promise<FsDir | undefined> {
    const pages = await wiki.pages(prefix.join('/'), scope);
    if (prefix.length > 0 && pages.length === 0) return undefined;
    return folderOf(prefix, pages);
  }

  async function resolve(segments: string[], scope: FsScope): Promise<FsNode | undefined> {
    if (segments.length === 0) return folder([], scope);
    if (segments.some((s) => s.includes('/'))) return undefined;
    const last = segments.at(-1)!;
    if (last.toLowerCase().endsWith('.md')) {
      try {
        return page(await wiki.read(segments.join('/'), scope));
      } catch (e) {
        if (!(e instanceof TapedeckError) || e.code !== 'NOT_FOUND') throw e;
      }
    }
    return folder(segments, scope);
  }

  return {
    name: 'wiki',
    description: 'wiki pages of the space (free Markdown), by path',
    writable: '/wiki/<path>.md (create or replace a page; versions are kept)',
    resolve,

    async write(segments, content, scope) {
      if (segments.length === 0)
        throw forbidden('/wiki is a folder: write a page such as /wiki/notes/deploy.md');
      if (segments.some((s) => s.includes('/')))
        throw invalidInput(`${at(segments)}: a wiki folder or page name cannot contain "/"`);
      if (!segments.at(-1)!.toLowerCase().endsWith('.md') && (await folder(segments, scope)))
        throw invalidInput(
          `${at(segments)} is a folder; write a page inside it, e.g. ${at([...segments, 'index.md'])}`,
        );
      const r = await wiki.write(segments.join('/'), content, scope);
      const path = at(r.path.split('/'));
      return {
        path,
        canonical: path,
        link: `tapedeck://fs${path}`,
        status: r.status,
        note:
          r.status === 'unchanged'
            ? `Unchanged: ${path} (v${r.version})`
            : `${r.status[0].toUpperCase()}${r.status.slice(1)} ${path} v${r.version}${r.redactions ? ` (${r.redactions} secrets redacted)` : ''}`,
      };
    },

    async remove(segments, scope) {
      if (segments.length === 0)
        throw forbidden('/wiki itself cannot be removed; rm a page such as /wiki/notes.md');
      if (!segments.at(-1)!.toLowerCase().endsWith('.md') && (await folder(segments, scope)))
        throw forbidden(`${at(segments)} is a folder; remove its pages one at a time`);
      const r = await wiki.remove(segments.join('/'), scope);
      return {
        path: at(r.path.split('/')),
        status: 'removed',
        undo: `tapedeck wiki show ${r.path} --version=${r.version} (then write it again to restore it)`,
      };
    },

    async recall(query, segments, scope, limit) {
      const last = segments.at(-1);
      const prefix = last?.toLowerCase().endsWith('.md') ? segments.slice(0, -1) : segments;
      const r = await wiki.search(query, { ...scope, prefix: prefix.join('/'), limit: Math.min(limit, 100) });
      return r.hits
        .filter((h) => !last?.toLowerCase().endsWith('.md') || h.path === segments.join('/'))
        .map((h) => ({ path: at(h.path.split('/')), title: h.title, snippet: h.snippet, score: h.score }));
    },
  };
}
