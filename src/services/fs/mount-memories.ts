/**
 * `/memories`: every active memory of the space under by-id, and the same files seen by label,
 * type and date (the event start, else the day it was recorded, UTC). A superseded or forgotten
 * memory is still readable at its by-id path (as `tapedeck memory show` reads it), never listed.
 *
 * Writes: a file under by-id, by-label/<label>, by-type/<type> or by-date/YYYY/MM/DD whose name is
 * not an existing id (`new.md`) creates a memory from its front matter and body (the folder adds
 * its label, type or date); writing an existing memory's file supersedes it when the text changed
 * (the old one stays readable with --as-of) and updates its other fields otherwise. rm forgets it
 * (a tombstone; `tapedeck memory restore` undoes it).
 */
import { invalidInput, notFound, TapedeckError } from '../../core/errors.js';
import { UNIT_TYPES } from '../../core/memory.js';
import { squash, titleFrom } from '../../core/text.js';
import type { DateGranularity, KnowledgeCatalog } from '../../ports/knowledge-catalog.js';
import type { Memory, MemoryDetail, MemoryService, MemoryUpdateInput } from '../memories.js';
import { type MemoryFileFields, parseMemoryFile } from './memory-file.js';
import { renderMemory } from './render.js';
import {
  bytes,
  type FsDir,
  type FsFile,
  type FsNode,
  type FsScope,
  forbidden,
  idOfFile,
  type Mount,
  pagedDir,
  pathOf,
  staticDir,
} from './tree.js';

const VIEWS = ['by-id', 'by-label', 'by-type', 'by-date'] as const;
const DATE_PARTS = [/^\d{4}$/, /^(0[1-9]|1[0-2])$/, /^(0[1-9]|[12]\d|3[01])$/];

export interface MemoriesMountDeps {
  memories: MemoryService;
  catalog: KnowledgeCatalog;
  resolveSpace: (scope: FsScope) => string;
}

/** The day a memory is filed under in by-date (what the catalog groups by). */
export const memoryDay = (m: Pick<Memory, 'event_start' | 'created_at'>) =>
  (m.event_start ?? m.created_at).slice(0, 10);

export function createMemoriesMount({ memories, catalog, resolveSpace }: MemoriesMountDeps): Mount {
  const at = (rest: string[]) => pathOf('memories', rest);

  /** A memory of this space by exact id, or undefined. */
  function find(id: string | null, space: string): MemoryDetail | undefined {
    if (!id) return undefined;
    try {
      const m = memories.get(id);
      return m.id === id && m.space === space ? m : undefined;
    } catch (e) {
      if (e instanceof TapedeckError && (e.code === 'NOT_FOUND' || e.code === 'INVALID_INPUT'))
        return undefined;
      throw e;
    }
  }

  function file(m: Memory, folder: string[]): FsFile {
    const text = renderMemory(m);
    return {
      kind: 'file',
      name: `${m.id}.md`,
      path: at([...folder, `${m.id}.md`]),
      canonical: at(['by-id', `${m.id}.md`]),
      title: m.title,
      created_at: m.created_at,
      updated_at: m.updated_at,
      link: m.link,
      writable: m.status === 'active',
      size: bytes(text),
      info: {
        status: m.status,
        type: m.unit_type,
        labels: m.labels.join(', '),
        importance: m.importance,
      },
      read: () => text,
    };
  }

  const list = (space: string, folder: string[], filter: { labels?: string; types?: string }) =>
    pagedDir(
      { path: at(folder), name: folder.at(-1)!, writable: false, view: folder[0] !== 'by-id' },
      (offset, limit) => {
        // The service pages at most 1,000 at a time.
        const out: FsFile[] = [];
        for (let at = offset; at < offset + limit; at += 1000) {
          const page = memories.list({
            space,
            ...filter,
            offset: at,
            limit: Math.min(1000, offset + limit - at),
          });
          out.push(...page.memories.map((m) => file(m, folder)));
          if (page.next_offset === null) break;
        }
        return out;
      },
    );

  function dateDir(space: string, parts: string[]): FsDir {
    const folder = ['by-date', ...parts];
    if (parts.length === 3) {
      const day = parts.join('-');
      return pagedDir({ path: at(folder), name: parts[2], writable: false, view: true }, (offset, limit) =>
        catalog.memoriesOn(space, day, limit, offset).flatMap((id) => {
          const m = find(id, space);
          return m ? [file(m, folder)] : [];
        }),
      );
    }
    const granularity = [4, 7, 10][parts.length] as DateGranularity;
    const buckets = () => catalog.memoryDates(space, parts.join('-'), granularity);
    return {
      ...staticDir({ path: at(folder), name: folder.at(-1)!, writable: false }, () =>
        buckets().map((b) => dateDir(space, b.key.split('-'))),
      ),
      view: true,
    };
  }

  function resolve(segments: string[], scope: FsScope): FsNode | undefined {
    const space = resolveSpace(scope);
    const [view, ...rest] = segments;
    if (view === undefined)
      return staticDir({ path: at([]), name: 'memories', writable: false }, () =>
        VIEWS.map((v) => resolve([v], scope)!),
      );
    if (view === 'by-id') {
      if (rest.length === 0) {
        const count = catalog.memoryTypes(space).reduce((n, b) => n + b.n, 0);
        return { ...list(space, ['by-id'], {}), count };
      }
      const m = rest.length === 1 ? find(idOfFile(rest[0]), space) : undefined;
      return m ? file(m, ['by-id']) : undefined;
    }
    if (view === 'by-label') {
      const labels = catalog.memoryLabels(space);
      if (rest.length === 0)
        return {
          ...staticDir({ path: at(['by-label']), name: 'by-label', writable: false }, () =>
            labels.map((b) => ({ ...list(space, ['by-label', b.key], { labels: b.key }), count: b.n })),
          ),
          view: true,
        };
      const bucket = labels.find((b) => b.key === rest[0]);
      if (!bucket) return undefined;
      if (rest.length === 1)
        return { ...list(space, ['by-label', bucket.key], { labels: bucket.key }), count: bucket.n };
      const m = rest.length === 2 ? find(idOfFile(rest[1]), space) : undefined;
      return m && m.status === 'active' && m.labels.includes(bucket.key)
        ? file(m, ['by-label', bucket.key])
        : undefined;
    }
    if (view === 'by-type') {
      const counts = new Map(catalog.memoryTypes(space).map((b) => [b.key, b.n]));
      const typeDir = (t: string) => ({
        ...list(space, ['by-type', t], { types: t }),
        count: counts.get(t) ?? 0,
      });
      if (rest.length === 0)
        return {
          ...staticDir({ path: at(['by-type']), name: 'by-type', writable: false }, () =>
            UNIT_TYPES.map(typeDir),
          ),
          view: true,
        };
      if (!(UNIT_TYPES as readonly string[]).includes(rest[0])) return undefined;
      if (rest.length === 1) return typeDir(rest[0]);
      const m = rest.length === 2 ? find(idOfFile(rest[1]), space) : undefined;
      return m && m.status === 'active' && m.unit_type === rest[0]
        ? file(m, ['by-type', rest[0]])
        : undefined;
    }
    if (view === 'by-date') {
      const dirs = rest.slice(0, 3);
      if (!dirs.every((p, i) => DATE_PARTS[i].test(p))) return undefined;
      if (rest.length <= 3) {
        if (rest.length === 0) return dateDir(space, []);
        const exists = catalog.memoryDates(
          space,
          dirs.join('-'),
          [4, 7, 10][dirs.length - 1] as DateGranularity,
        );
        return exists.length ? dateDir(space, dirs) : undefined;
      }
      const m = rest.length === 4 ? find(idOfFile(rest[3]), space) : undefined;
      return m && m.status === 'active' && memoryDay(m) === dirs.join('-')
        ? file(m, ['by-date', ...dirs])
        : undefined;
    }
    return undefined;
  }

  /** The folder's implied fields and the file name, or FORBIDDEN for a place that takes no file. */
  function target(segments: string[]): { name: string; label?: string; type?: string; day?: string } {
    const [view, ...rest] = segments;
    const nope = () =>
      forbidden(
        `${at(segments)} cannot be written: write a file such as /memories/by-id/new.md (or under by-label/<label>, by-type/<type>, by-date/YYYY/MM/DD)`,
      );
    if (view === 'by-id' && rest.length === 1) return { name: rest[0] };
    if (view === 'by-label' && rest.length === 2) return { name: rest[1], label: rest[0] };
    if (view === 'by-type' && rest.length === 2) {
      if (!(UNIT_TYPES as readonly string[]).includes(rest[0]))
        throw invalidInput(`Unknown memory type "${rest[0]}"; the types are ${UNIT_TYPES.join(', ')}`);
      return { name: rest[1], type: rest[0] };
    }
    if (view === 'by-date' && rest.length === 4) {
      if (!rest.slice(0, 3).every((p, i) => DATE_PARTS[i].test(p)))
        throw invalidInput(`${at(segments)}: the folders must be a date, YYYY/MM/DD`);
      return { name: rest[3], day: rest.slice(0, 3).join('-') };
    }
    throw nope();
  }

  function patchOf(m: Memory, f: MemoryFileFields): MemoryUpdateInput {
    const patch: MemoryUpdateInput = {};
    if (f.title !== undefined && squash(f.title) !== m.title) patch.title = f.title;
    if (f.type !== undefined && f.type.trim().toLowerCase() !== m.unit_type) patch.type = f.type;
    if (f.labels !== undefined) {
      const next = f.labels.map((l) => l.trim().toLowerCase()).filter(Boolean);
      if (next.join('\u0000') !== m.labels.join('\u0000')) patch.labels = next;
    }
    if (f.importance !== undefined && Number(f.importance) !== m.importance) patch.importance = f.importance;
    if (f.confidence !== undefined && Number(f.confidence) !== m.confidence) patch.confidence = f.confidence;
    if (f.project !== undefined && f.project !== m.project) patch.project = f.project;
    const p = m.provenance;
    if (f.thread !== undefined && f.thread !== p?.thread) patch.thread = f.thread;
    if (f.steps !== undefined) {
      const now =
        p?.step_from === null || p?.step_from === undefined
          ? null
          : `${p.step_from}-${p.step_to ?? p.step_from}`;
      const given = /^\d+$/.test(f.steps.trim())
        ? `${f.steps.trim()}-${f.steps.trim()}`
        : f.steps.replace(/\s/g, '');
      if (given !== now) {
        patch.steps = f.steps;
        patch.thread ??= f.thread ?? p?.thread ?? undefined;
      }
    }
    if (f.source !== undefined && f.source !== p?.source) patch.source = f.source;
    if (f.eventStart !== undefined && f.eventStart !== m.event_start) patch.eventStart = f.eventStart;
    if (f.eventEnd !== undefined && f.eventEnd !== m.event_end) patch.eventEnd = f.eventEnd;
    return patch;
  }

  return {
    name: 'memories',
    description: 'memories of the space: by-id, by-label, by-type, by-date',
    writable:
      '/memories/by-id/new.md (a new memory; also under by-label/<label>, by-type/<type>, by-date/YYYY/MM/DD); an existing memory file (supersedes it)',
    resolve,

    write(segments, content, scope) {
      const space = resolveSpace(scope);
      const t = target(segments);
      if (!t.name.endsWith('.md') || t.name.length <= 3)
        throw invalidInput(`${at(segments)}: a memory file name ends in .md (e.g. new.md)`);
      const f = parseMemoryFile(content, at(segments));
      if (t.type && f.type && f.type.trim().toLowerCase() !== t.type)
        throw invalidInput(
          `${at(segments)}: the file says type "${f.type}" but is written under by-type/${t.type}`,
        );
      const labels = t.label ? [...(f.labels ?? []), t.label] : f.labels;
      const existing = find(idOfFile(t.name), space);
      if (!existing) {
        const m = memories.add({
          content: f.content,
          title: f.title,
          type: f.type ?? t.type,
          labels,
          importance: f.importance,
          confidence: f.confidence,
          project: f.project,
          thread: f.thread,
          steps: f.steps,
          source: f.source,
          eventStart: f.eventStart ?? t.day,
          eventEnd: f.eventEnd,
          space,
          cwd: scope.cwd,
        });
        const canonical = at(['by-id', `${m.id}.md`]);
        return {
          path: at(segments),
          canonical,
          link: m.link,
          status: m.deduplicated ? 'deduplicated' : 'created',
          note: m.deduplicated
            ? `An existing memory says the same (${m.match}); labels merged into ${canonical}`
            : `Created ${canonical}`,
        };
      }
      const fields: MemoryFileFields = { ...f, labels, type: f.type ?? t.type, eventStart: f.eventStart };
      if (f.content.trim() !== existing.content) {
        // A title derived from the old text (as `cat` shows it) follows the new text instead.
        if (
          fields.title !== undefined &&
          squash(fields.title) === existing.title &&
          existing.title === titleFrom(existing.content, 80)
        )
          fields.title = undefined;
        const next = memories.supersede(existing.id, {
          content: f.content,
          title: fields.title,
          type: fields.type,
          labels: fields.labels,
          importance: fields.importance,
          confidence: fields.confidence,
          project: fields.project,
          thread: fields.thread,
          steps: fields.steps,
          source: fields.source,
          eventStart: fields.eventStart,
          eventEnd: fields.eventEnd,
        });
        const canonical = at(['by-id', `${next.id}.md`]);
        return {
          path: at(segments),
          canonical,
          link: next.link,
          status: 'superseded',
          note: `Superseded ${existing.id} by ${canonical} (the old text stays readable with --as-of)`,
        };
      }
      const patch = patchOf(existing, fields);
      const canonical = at(['by-id', `${existing.id}.md`]);
      if (Object.keys(patch).length === 0)
        return {
          path: at(segments),
          canonical,
          link: existing.link,
          status: 'unchanged',
          note: `Unchanged: ${canonical}`,
        };
      const m = memories.update(existing.id, patch);
      return {
        path: at(segments),
        canonical,
        link: m.link,
        status: 'updated',
        note: `Updated ${Object.keys(patch).join(', ')} of ${canonical}`,
      };
    },

    remove(segments, scope) {
      const space = resolveSpace(scope);
      const node = resolve(segments, scope);
      if (!node) throw notFound(`No memory file ${at(segments)}`);
      if (node.kind === 'dir')
        throw forbidden(`${at(segments)} is a folder; remove memories one file at a time`);
      const id = idOfFile(node.name)!;
      const m = find(id, space)!;
      if (m.status === 'forgotten') throw new TapedeckError('CONFLICT', `Memory ${id} is already forgotten`);
      memories.forget(id);
      return { path: at(segments), status: 'forgotten', undo: `tapedeck memory restore ${id}` };
    },

    recall(query, segments, scope, limit) {
      const space = resolveSpace(scope);
      const [view, ...rest] = segments;
      const filter: { labels?: string; types?: string; since?: string; until?: string } = {};
      if (view === 'by-label' && rest[0]) filter.labels = rest[0];
      if (view === 'by-type' && rest[0]) filter.types = rest[0];
      if (view === 'by-date' && rest.length) {
        const from = [rest[0], rest[1] ?? '01', rest[2] ?? '01'].join('-');
        const last =
          rest[2] ?? (rest[1] ? String(new Date(Date.UTC(+rest[0], +rest[1], 0)).getUTCDate()) : '31');
        filter.since = from;
        filter.until = [rest[0], rest[1] ?? '12', last].join('-');
      }
      const r = memories.search(query, { ...filter, space, limit });
      return r.hits.map((h) => ({
        path: at(['by-id', `${h.id}.md`]),
        title: h.title,
        snippet: squash(h.content).slice(0, 200),
        score: h.score,
      }));
    },
  };
}
