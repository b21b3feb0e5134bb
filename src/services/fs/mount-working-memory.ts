/**
 * `/working-memory`: `today.md` (the space's briefing, regenerated when stale, as `tapedeck wm` reads
 * it) and `YYYY-MM-DD.md` for the days with a stored briefing. Writing a day's file is a person's
 * edit: each `## Section` whose text differs from what is shown becomes that section's edit, and
 * survives regeneration of the others (the working-memory service's rule). Not removable: `tapedeck
 * wm refresh --reset <section>` drops an edit. The store is async, so a file's briefing is read
 * when the file is resolved (the folder's, when the folder is: a listing is synchronous).
 */
import { parseQuery } from '../../core/query.js';
import type { KnowledgeCatalog } from '../../ports/knowledge-catalog.js';
import type { WorkingMemory, WorkingMemoryService } from '../working-memory/index.js';
import { type FsFile, type FsNode, type FsScope, forbidden, type Mount, pathOf, staticDir } from './tree.js';

const DAY_FILE = /^(\d{4}-\d{2}-\d{2})\.md$/;

export interface WorkingMemoryMountDeps {
  workingMemory: WorkingMemoryService;
  catalog: KnowledgeCatalog;
  resolveSpace: (scope: FsScope) => string;
  now?: () => number;
}

export function createWorkingMemoryMount({
  workingMemory,
  catalog,
  resolveSpace,
  now = Date.now,
}: WorkingMemoryMountDeps): Mount {
  const at = (rest: string[]) => pathOf('working-memory', rest);
  const today = () => new Date(now()).toISOString().slice(0, 10);

  /** A past day's stored briefing is shown as kept; today's is brought up to date first. */
  function briefing(day: string, scope: FsScope): Promise<WorkingMemory> {
    const stored = catalog.workingMemoryDays(resolveSpace(scope)).includes(day);
    return workingMemory.read({
      ...scope,
      date: day,
      regenerate: day === today() || !stored ? undefined : false,
    });
  }

  async function file(name: string, day: string, scope: FsScope): Promise<FsFile> {
    const w = await briefing(day, scope);
    return {
      kind: 'file',
      name,
      path: at([name]),
      canonical: name === 'today.md' ? at([`${day}.md`]) : undefined,
      title: `Working memory ${day}`,
      updated_at: w.generated_at,
      link: `tapedeck://fs${at([name])}`,
      writable: true,
      size: null,
      info: {
        date: w.date,
        space: w.space,
        edited: w.sections
          .filter((s) => s.edited)
          .map((s) => s.name)
          .join(', '),
      },
      read: () => w.markdown,
    } as FsFile;
  }

  function dayOf(name: string | undefined): string | null {
    if (name === 'today.md') return today();
    const m = name ? DAY_FILE.exec(name) : null;
    return m ? m[1] : null;
  }

  return {
    name: 'working-memory',
    description: 'the daily briefing: today.md, and YYYY-MM-DD.md for earlier days',
    writable:
      '/working-memory/today.md or /working-memory/YYYY-MM-DD.md (edit sections; edits survive regeneration)',

    async resolve(segments, scope): Promise<FsNode | undefined> {
      if (segments.length === 0) {
        const days = catalog.workingMemoryDays(resolveSpace(scope)).filter((d) => d !== today());
        const files = await Promise.all([
          file('today.md', today(), scope),
          ...days.map((d) => file(`${d}.md`, d, scope)),
        ]);
        return staticDir({ path: at([]), name: 'working-memory', writable: false }, () => files);
      }
      if (segments.length !== 1) return undefined;
      const day = dayOf(segments[0]);
      if (!day) return undefined;
      if (
        segments[0] !== 'today.md' &&
        day !== today() &&
        !catalog.workingMemoryDays(resolveSpace(scope)).includes(day)
      )
        return undefined;
      return file(segments[0], day, scope);
    },

    async write(segments, content, scope) {
      const day = segments.length === 1 ? dayOf(segments[0]) : null;
      if (!day)
        throw forbidden(
          `${at(segments)} cannot be written: write /working-memory/today.md or /working-memory/YYYY-MM-DD.md`,
        );
      const r = await workingMemory.edit({ ...scope, date: day, text: content });
      const path = at(segments);
      return {
        path,
        canonical: at([`${r.date}.md`]),
        link: `tapedeck://fs${path}`,
        status: r.changed.length ? 'updated' : 'unchanged',
        note: r.changed.length
          ? `Edited ${r.changed.join(', ')} of the ${r.date} briefing (kept when the rest regenerates)`
          : `Unchanged: the ${r.date} briefing`,
      };
    },

    async recall(query, segments, scope, limit) {
      const words = parseQuery(query)
        .terms.map((t) => t.text.toLowerCase())
        .filter(Boolean);
      if (words.length === 0) return [];
      const day = segments.length === 1 ? dayOf(segments[0]) : today();
      if (!day) return [];
      const wm = await briefing(day, scope);
      return wm.markdown
        .split('\n')
        .map((line, i) => ({
          line,
          i,
          score: words.filter((w) => line.toLowerCase().includes(w)).length / words.length,
        }))
        .filter((x) => x.score > 0 && !x.line.startsWith('#'))
        .sort((a, b) => b.score - a.score || a.i - b.i)
        .slice(0, limit)
        .map((x) => ({
          path: at([`${wm.date}.md`]),
          title: `line ${x.i + 1}`,
          snippet: x.line.trim().slice(0, 240),
          score: Math.round(x.score * 1000) / 1000,
        }));
    },
  };
}
