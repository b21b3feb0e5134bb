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

  function page(p: WikiPageSummary, scope: FsScope): FsFile {
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
      read: () => wiki.read(p.path, scope).content,
    };
  }

  /** The folder `prefix` (components), or undefined when no live page is under it. */
  function folder(prefix: string[], scope: FsScope): FsDir | undefined {
    const base = prefix.join('/');
    const pages = wiki.list(base, scope);
    if (prefix.length > 0 && pages.length === 0) return undefined;
    const children = (): FsNode[] => {
      const dirs = new Set<string>();
      const out: FsNode[] = [];
      for (const p of pages) {
        const rest = base ? p.path.slice(base.length + 1) : p.path;
        const cut = rest.indexOf('/');
        if (cut === -1) out.push(page(p, scope));
        else if (!dirs.has(rest.slice(0, cut))) {
          dirs.add(rest.slice(0, cut));
          out.push(folder([...prefix, rest.slice(0, cut)], scope)!);
        }
      }
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

  function resolve(segments: string[], scope: FsScope): FsNode | undefined {
    if (segments.length === 0) return folder([], scope);
    if (segments.some((s) => s.includes('/'))) return undefined;
    const last = segments.at(-1)!;
    if (last.toLowerCase().endsWith('.md')) {
      try {
        const p = wiki.read(segments.join('/'), scope);
        return page(p, scope);
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

    write(segments, content, scope) {
      if (segments.length === 0)
        throw forbidden('/wiki is a folder: write a page such as /wiki/notes/deploy.md');
      if (segments.some((s) => s.includes('/')))
        throw invalidInput(`${at(segments)}: a wiki folder or page name cannot contain "/"`);
      if (!segments.at(-1)!.toLowerCase().endsWith('.md') && folder(segments, scope))
        throw invalidInput(
          `${at(segments)} is a folder; write a page inside it, e.g. ${at([...segments, 'index.md'])}`,
        );
      const r = wiki.write(segments.join('/'), content, scope);
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

    remove(segments, scope) {
      if (segments.length === 0)
        throw forbidden('/wiki itself cannot be removed; rm a page such as /wiki/notes.md');
      if (!segments.at(-1)!.toLowerCase().endsWith('.md') && folder(segments, scope))
        throw forbidden(`${at(segments)} is a folder; remove its pages one at a time`);
      const r = wiki.remove(segments.join('/'), scope);
      return {
        path: at(r.path.split('/')),
        status: 'removed',
        undo: `tapedeck wiki show ${r.path} --version=${r.version} (then write it again to restore it)`,
      };
    },

    recall(query, segments, scope, limit) {
      const last = segments.at(-1);
      const prefix = last?.toLowerCase().endsWith('.md') ? segments.slice(0, -1) : segments;
      const r = wiki.search(query, { ...scope, prefix: prefix.join('/'), limit: Math.min(limit, 100) });
      return r.hits
        .filter((h) => !last?.toLowerCase().endsWith('.md') || h.path === segments.join('/'))
        .map((h) => ({ path: at(h.path.split('/')), title: h.title, snippet: h.snippet, score: h.score }));
    },
  };
}
