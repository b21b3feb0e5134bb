/**
 * Memories: the durable knowledge an agent and its user keep. Add (deduplicated), show, update,
 * list, search, supersede, forget (a tombstone), restore and purge. Every write validates first
 * and runs in one IMMEDIATE transaction, so concurrent writers neither lose nor duplicate.
 */
import { invalidInput, notFound, TapedeckError } from '../core/errors.js';
import {
  type Memory,
  type MemoryStatus,
  memoryLink,
  memoryRef,
  statusOf,
  type UnitType,
} from '../core/memory.js';
import {
  contentHash,
  fingerprint,
  isNearDuplicate,
  normalizeText,
  similarity,
} from '../core/near-duplicate.js';
import { parseQuery } from '../core/query.js';
import type { MemoryFilter, MemoryStore, MemoryWriter } from '../ports/memory-store.js';
import type { TranscriptStore } from '../ports/transcript-store.js';
import { rankMemories } from '../search/memory-rank.js';
import {
  cleanContent,
  cleanDate,
  cleanEvent,
  cleanLabels,
  cleanLimit,
  cleanProject,
  cleanProvenance,
  cleanStatuses,
  cleanTitle,
  cleanType,
  cleanTypes,
  cleanUnit,
  mergeLabels,
  type ProvenanceInput,
} from './memory-input.js';
import type { SpaceService } from './spaces.js';

export interface MemoryAddInput extends ProvenanceInput {
  content: string;
  title?: string;
  /** Unit type (default fact). */
  type?: string;
  labels?: string | string[];
  importance?: number | string;
  confidence?: number | string;
  /** Absolute project directory. */
  project?: string;
  space?: string;
  /** The caller's working directory, for the space mapping when no project is given. */
  cwd?: string;
  eventStart?: string;
  eventEnd?: string;
}

export interface MemoryUpdateInput extends ProvenanceInput {
  title?: string;
  content?: string;
  type?: string;
  /** Replace the labels. */
  labels?: string | string[];
  addLabels?: string | string[];
  removeLabels?: string | string[];
  importance?: number | string;
  confidence?: number | string;
  /** An absolute directory, or '' / null to clear it. */
  project?: string | null;
  eventStart?: string | null;
  eventEnd?: string | null;
}

export interface MemoryQueryInput {
  labels?: string | string[];
  types?: string | string[];
  project?: string;
  space?: string;
  /** Look in every space (never implied). */
  allSpaces?: boolean;
  cwd?: string;
  asOf?: string;
  since?: string;
  until?: string;
  limit?: number | string;
}

export interface MemoryListInput extends MemoryQueryInput {
  /** active (default), superseded, forgotten, all. Ignored with asOf. */
  status?: string | string[];
  offset?: number;
}

export interface AddResult extends Memory {
  /** True when an existing memory said the same thing; it is returned (labels merged). */
  deduplicated: boolean;
  /** How it matched: the normalized text exactly, or a near-duplicate with its similarity. */
  match?: 'exact' | 'near';
  similarity?: number;
}

export interface MemoryDetail extends Memory {
  /** Ids of the memories this one replaced. */
  supersedes: string[];
}

export interface SearchHit extends Memory {
  score: number;
}

export interface MemorySearchResult {
  query: string;
  took_ms: number;
  /** The spaces searched, or null for all. */
  spaces: string[] | null;
  hits: SearchHit[];
}

export interface MemoryService {
  add(input: MemoryAddInput): AddResult;
  /** By id, `tapedeck://memory/<id>` link, or a unique id prefix of 8+ characters. */
  get(ref: string): MemoryDetail;
  update(ref: string, patch: MemoryUpdateInput): MemoryDetail;
  /** Replace a memory with a new one; the old one stays readable with `asOf`. */
  supersede(ref: string, input: Omit<MemoryAddInput, 'space'>): MemoryDetail;
  /** Tombstone: hidden everywhere but `get` and `list --status forgotten`; undone by restore. */
  forget(ref: string): MemoryDetail & { changed: boolean };
  restore(ref: string): MemoryDetail & { changed: boolean };
  /** Delete for good; only a forgotten memory unless `force`. */
  purge(ref: string, options?: { force?: boolean }): { id: string; purged: true };
  list(input?: MemoryListInput): { memories: Memory[]; next_offset: number | null };
  search(query: string, input?: MemoryQueryInput): MemorySearchResult;
  /** Turn an id, link or prefix into a stored id (NOT_FOUND otherwise). */
  resolveId(ref: string): string;
}

export interface MemoryServiceDeps {
  store: MemoryStore;
  spaces: SpaceService;
  /** Transcript threads that provenance may point at. */
  threads: Pick<TranscriptStore, 'getThread' | 'getSteps'>;
  now?: () => number;
  /** New memory ids (random UUIDs; tests that compare runs count them). */
  newId?: () => string;
}

export const MAX_SEARCH_LIMIT = 100;
const NEAR_CANDIDATES = 30;

export function createMemoryService({
  store,
  spaces,
  threads,
  now = Date.now,
  newId = () => crypto.randomUUID(),
}: MemoryServiceDeps): MemoryService {
  const iso = () => new Date(now()).toISOString();

  function resolveId(ref: string): string {
    if (typeof ref !== 'string' || ref.trim() === '') throw invalidInput('A memory id is required');
    const id = memoryRef(ref);
    if (store.get(id)) return id;
    if (id.length >= 8) {
      const ids = store.idsWithPrefix(id, 6);
      if (ids.length === 1) return ids[0];
      if (ids.length > 1)
        throw invalidInput(`"${id}" matches several memories (${ids.join(', ')}); give more of the id`);
    }
    throw notFound(
      `No memory "${ref}"; find one with \`tapedeck memory search\` or \`tapedeck memory list\``,
    );
  }

  const detail = (m: Memory): MemoryDetail => ({ ...m, supersedes: store.supersedes(m.id) });

  function mustGet(w: MemoryWriter, id: string): Memory {
    const m = w.get(id);
    if (!m) throw notFound(`No memory "${id}"`);
    return m;
  }

  function checkThread(thread: string | null, range: [number, number] | null): void {
    if (!thread) return;
    if (!threads.getThread(thread))
      throw notFound(`No thread "${thread}" for the provenance; list threads with \`tapedeck threads\``);
    if (range && threads.getSteps(thread, range[0], range[1], 1).length === 0)
      throw notFound(`Thread ${thread} has no steps ${range[0]}-${range[1]}`);
  }

  /** The memory a validated add would create (no id/time decisions made twice). */
  function build(input: MemoryAddInput, space: string, defaults?: Memory): Omit<Memory, 'id' | 'link'> {
    const content = cleanContent(input.content);
    const t = now();
    const prov = cleanProvenance(input);
    checkThread(prov.thread, prov.range);
    const at = new Date(t).toISOString();
    return {
      title: cleanTitle(input.title, content),
      content,
      unit_type: cleanType(input.type, defaults?.unit_type),
      labels: mergeLabels(defaults?.labels ?? [], cleanLabels(input.labels)),
      importance: cleanUnit('importance', input.importance, defaults?.importance ?? 0.5),
      confidence: cleanUnit('confidence', input.confidence, defaults?.confidence ?? 1),
      space,
      project: input.project !== undefined ? cleanProject(input.project) : (defaults?.project ?? null),
      provenance:
        prov.thread || prov.source
          ? {
              thread: prov.thread,
              step_from: prov.range?.[0] ?? null,
              step_to: prov.range?.[1] ?? null,
              link: null,
              source: prov.source,
            }
          : null,
      ...cleanEvent(input.eventStart, input.eventEnd, t),
      created_at: at,
      updated_at: at,
      valid_from: at,
      valid_to: null,
      superseded_by: null,
      forgotten_at: null,
      status: 'active',
    };
  }

  const withId = (m: Omit<Memory, 'id' | 'link'>): Memory => {
    const id = newId();
    return { ...m, id, link: memoryLink(id) };
  };

  /** An active memory in the same space and project that says the same thing, if any. */
  function findDuplicate(
    w: MemoryWriter,
    m: Pick<Memory, 'content' | 'space' | 'project'>,
  ): { memory: Memory; match: 'exact' | 'near'; similarity: number } | null {
    const norm = normalizeText(m.content);
    const exact = w
      .withHash(m.space, m.project, contentHash(m.content))
      .find((x) => normalizeText(x.content) === norm);
    if (exact) return { memory: exact, match: 'exact', similarity: 1 };
    const fp = fingerprint(m.content);
    let best: { memory: Memory; similarity: number } | null = null;
    for (const c of w.similar(m.space, m.project, m.content, NEAR_CANDIDATES)) {
      const cf = fingerprint(c.content);
      if (!isNearDuplicate(fp, cf)) continue;
      const s = similarity(fp, cf);
      if (!best || s > best.similarity) best = { memory: c, similarity: s };
    }
    return best ? { ...best, match: 'near', similarity: Math.round(best.similarity * 1000) / 1000 } : null;
  }

  function editable(m: Memory, verb: string): void {
    if (m.status === 'forgotten')
      throw new TapedeckError('CONFLICT', `Memory ${m.id} is forgotten; restore it before you ${verb} it`);
    if (m.status === 'superseded')
      throw new TapedeckError(
        'CONFLICT',
        `Memory ${m.id} was superseded by ${m.superseded_by}; ${verb} the current one (tapedeck://memory/${m.superseded_by})`,
      );
  }

  function filterOf(input: MemoryQueryInput & { status?: string | string[] }): MemoryFilter {
    const t = now();
    const asOf = cleanDate('as-of', input.asOf, t, true);
    const project = cleanProject(input.project) ?? undefined;
    const labels = cleanLabels(input.labels);
    return {
      spaces: input.allSpaces ? null : [spaces.resolve({ space: input.space, project, cwd: input.cwd })],
      types: cleanTypes(input.types),
      labels: labels.length ? labels : undefined,
      project,
      since: cleanDate('since', input.since, t, false),
      until: cleanDate('until', input.until, t, true),
      asOf,
      statuses: asOf ? undefined : cleanStatuses(input.status),
    };
  }

  return {
    resolveId,

    add(input) {
      const project = cleanProject(input.project);
      const space = spaces.resolve({ space: input.space, project: project ?? undefined, cwd: input.cwd });
      const draft = build(input, space);
      return store.write((w) => {
        const dup = findDuplicate(w, draft);
        if (dup) {
          const old = dup.memory;
          const labels = mergeLabels(old.labels, draft.labels);
          const importance = Math.max(old.importance, draft.importance);
          const changed = labels.length !== old.labels.length || importance !== old.importance;
          const merged: Memory = changed ? { ...old, labels, importance, updated_at: iso() } : old;
          if (changed) w.update(merged);
          return { ...merged, deduplicated: true, match: dup.match, similarity: dup.similarity };
        }
        const m = withId(draft);
        w.insert(m);
        return { ...w.get(m.id)!, deduplicated: false };
      });
    },

    get(ref) {
      const m = store.get(resolveId(ref));
      if (!m) throw notFound(`No memory "${ref}"`);
      return detail(m);
    },

    update(ref, patch) {
      const id = resolveId(ref);
      const t = now();
      // Validate everything before the transaction.
      const content = patch.content !== undefined ? cleanContent(patch.content) : undefined;
      const labels = patch.labels !== undefined ? cleanLabels(patch.labels) : undefined;
      const add = cleanLabels(patch.addLabels);
      const remove = cleanLabels(patch.removeLabels);
      const type = patch.type !== undefined ? cleanType(patch.type) : undefined;
      const importance =
        patch.importance !== undefined ? cleanUnit('importance', patch.importance, 0) : undefined;
      const confidence =
        patch.confidence !== undefined ? cleanUnit('confidence', patch.confidence, 0) : undefined;
      const project = patch.project !== undefined ? cleanProject(patch.project) : undefined;
      const prov = cleanProvenance(patch);
      checkThread(prov.thread, prov.range);
      const touchesEvent = patch.eventStart !== undefined || patch.eventEnd !== undefined;
      const touched =
        [patch.title, content, labels, type, importance, confidence, project, prov.thread, prov.source].some(
          (x) => x !== undefined && x !== null,
        ) ||
        patch.project === null ||
        patch.project === '' ||
        add.length > 0 ||
        remove.length > 0 ||
        touchesEvent;
      if (!touched) throw invalidInput('Nothing to update: give at least one field to change');
      const m = store.write((w) => {
        const old = mustGet(w, id);
        editable(old, 'update');
        const next: Memory = { ...old, updated_at: new Date(t).toISOString() };
        if (content !== undefined) next.content = content;
        if (patch.title !== undefined) next.title = cleanTitle(patch.title, next.content);
        else if (content !== undefined && old.title === cleanTitle(undefined, old.content))
          next.title = cleanTitle(undefined, content); // a derived title follows the content
        if (type) next.unit_type = type;
        if (labels) next.labels = labels;
        next.labels = mergeLabels(next.labels, add).filter((l) => !remove.includes(l));
        if (importance !== undefined) next.importance = importance;
        if (confidence !== undefined) next.confidence = confidence;
        if (project !== undefined) next.project = project;
        if (prov.thread || prov.source) {
          const p = next.provenance ?? {
            thread: null,
            step_from: null,
            step_to: null,
            link: null,
            source: null,
          };
          next.provenance = {
            ...p,
            ...(prov.thread
              ? { thread: prov.thread, step_from: prov.range?.[0] ?? null, step_to: prov.range?.[1] ?? null }
              : {}),
            ...(prov.source ? { source: prov.source } : {}),
          };
        }
        if (touchesEvent) {
          const ev = cleanEvent(
            patch.eventStart === undefined ? old.event_start : patch.eventStart,
            patch.eventEnd === undefined ? old.event_end : patch.eventEnd,
            t,
          );
          next.event_start = ev.event_start;
          next.event_end = ev.event_end;
        }
        w.update(next);
        return w.get(id)!;
      });
      return detail(m);
    },

    supersede(ref, input) {
      const id = resolveId(ref);
      const current = store.get(id)!;
      editable(current, 'supersede');
      const draft = build(input, current.space, current);
      if (normalizeText(draft.content) === normalizeText(current.content))
        throw invalidInput(
          'The new content says the same as the old; use `memory update` to change other fields',
        );
      const created = store.write((w) => {
        const old = mustGet(w, id);
        editable(old, 'supersede'); // it may have changed since the check above
        const m = withId(draft);
        w.insert(m);
        w.update({
          ...old,
          valid_to: m.valid_from,
          superseded_by: m.id,
          status: 'superseded',
          updated_at: m.valid_from,
        });
        return w.get(m.id)!;
      });
      return detail(created);
    },

    forget(ref) {
      const id = resolveId(ref);
      const { m, changed } = store.write((w) => {
        const old = mustGet(w, id);
        if (old.forgotten_at) return { m: old, changed: false };
        const at = iso();
        const next: Memory = { ...old, forgotten_at: at, status: 'forgotten', updated_at: at };
        w.update(next);
        return { m: next, changed: true };
      });
      return { ...detail(m), changed };
    },

    restore(ref) {
      const id = resolveId(ref);
      const { m, changed } = store.write((w) => {
        const old = mustGet(w, id);
        if (!old.forgotten_at) return { m: old, changed: false };
        const base = { ...old, forgotten_at: null, updated_at: iso() };
        const next: Memory = { ...base, status: statusOf(base) };
        w.update(next);
        return { m: next, changed: true };
      });
      return { ...detail(m), changed };
    },

    purge(ref, { force = false } = {}) {
      const id = resolveId(ref);
      store.write((w) => {
        const m = mustGet(w, id);
        if (!m.forgotten_at && !force)
          throw new TapedeckError(
            'CONFLICT',
            `Memory ${id} is not forgotten; forget it first (restorable), or purge with --force`,
          );
        // Memories it replaced stay superseded (they were, at the time); the dangling link goes.
        for (const p of w.predecessors(id)) w.update({ ...p, superseded_by: null });
        w.remove(id);
      });
      return { id, purged: true };
    },

    list(input = {}) {
      const filter = filterOf(input);
      const limit = cleanLimit(input.limit, 20, 1000);
      const offset = Math.max(0, Math.floor(Number(input.offset ?? 0)) || 0);
      const rows = store.list(filter, limit + 1, offset);
      return { memories: rows.slice(0, limit), next_offset: rows.length > limit ? offset + limit : null };
    },

    search(query, input = {}) {
      const started = performance.now();
      if (typeof query !== 'string' || query.trim() === '') throw invalidInput('The query is empty');
      if (query.length > 2000) throw invalidInput('The query is over 2,000 characters');
      const limit = cleanLimit(input.limit, 10, MAX_SEARCH_LIMIT);
      const filter = filterOf(input);
      const parsed = parseQuery(query);
      // A pool several times the page: importance and recency re-order within it.
      const pool = Math.min(500, Math.max(50, limit * 5));
      const ranked = rankMemories(store.candidates(parsed, filter, pool), now()).slice(0, limit);
      const byId = new Map(store.getMany(ranked.map((r) => r.id)).map((m) => [m.id, m]));
      const hits = ranked.flatMap((r) => {
        const m = byId.get(r.id);
        return m ? [{ ...m, score: Number(r.score.toPrecision(4)) }] : [];
      });
      return {
        query,
        took_ms: Math.round((performance.now() - started) * 100) / 100,
        spaces: filter.spaces,
        hits,
      };
    },
  };
}

export type { Memory, MemoryStatus, UnitType };
