/**
 * Generating the briefing of one space and day from the store, deterministically: the same store
 * and the same day give the same items in the same order (every list has a total order: time,
 * then id). The window is the 7 UTC days ending with the day, so it moves by the day, not the hour.
 */
import { buildHandoff, type Handoff } from '../../core/handoff.js';
import { type Memory, threadLink } from '../../core/memory.js';
import { isUnder } from '../../core/paths.js';
import { dayOf, oneLine, type WmItem, type WmSectionName } from '../../core/working-memory.js';
import type { ThreadRecord, TranscriptStore } from '../../ports/transcript-store.js';
import type { MemoryService } from '../memories.js';

export const WINDOW_DAYS = 7;
const DAY_MS = 86_400_000;
/** Limits per section: a briefing is read at the start of every session, so it stays short. */
export const LIMITS = {
  focus: 5,
  decisions: 8,
  decisionMemories: 5,
  openLoops: 10,
  planMemories: 5,
  sessions: 8,
  /** Recent sessions mined for decision statements and unfinished requests. */
  minedSessions: 5,
  /** Steps read from the end of each mined session. */
  minedSteps: 400,
  perSessionDecisions: 2,
  perSessionLoops: 3,
  /** Threads and memories looked at for the focus counts. */
  scan: 1000,
} as const;
const ITEM_CHARS = 200;

export interface GenerateDeps {
  memories: Pick<MemoryService, 'list'>;
  threads: Pick<TranscriptStore, 'listThreads' | 'stepWindow'>;
  /** The space a thread belongs to (its own, or its project's mapped space). */
  threadSpace: (thread: ThreadRecord) => string;
  /** The user's home: paths under it are shown as `~/…`. */
  home?: string;
}

/** The first and last instant of the window ending with `day` (YYYY-MM-DD, UTC). */
export function windowOf(day: string): { start: string; end: string } {
  const end = Date.parse(`${day}T00:00:00.000Z`) + DAY_MS - 1;
  return { start: new Date(end + 1 - WINDOW_DAYS * DAY_MS).toISOString(), end: new Date(end).toISOString() };
}

const key = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** Drop items whose text repeats an earlier one (the same decision said in two sessions). */
function unique(items: WmItem[]): WmItem[] {
  const seen = new Set<string>();
  return items.filter((i) => {
    const k = key(i.text);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function createGenerator({ memories, threads, threadSpace, home }: GenerateDeps) {
  const root = home?.replace(/[\\/]+$/, '');
  const display = (p: string) => (root && isUnder(p, root) ? `~${p.slice(root.length)}` : p);
  const base = (p: string | undefined) => (p ? (p.split(/[\\/]/).filter(Boolean).pop() ?? p) : '');

  function memoryText(m: Memory): string {
    const title = m.title.replace(/…$/, '');
    return oneLine(m.content.startsWith(title) ? m.content : `${m.title}: ${m.content}`, ITEM_CHARS);
  }
  const memoryItem = (m: Memory): WmItem => ({
    text: memoryText(m),
    link: m.link,
    source: 'memory',
    at: m.updated_at,
    project: m.project,
  });

  function focus(sessions: ThreadRecord[], recent: Memory[]): WmItem[] {
    const projects = new Map<string, { sessions: number; memories: number; last: string; link: string }>();
    // Threads come newest first, so the first thread seen is the project's link.
    for (const t of sessions) {
      if (!t.project) continue;
      const p = projects.get(t.project) ?? { sessions: 0, memories: 0, last: '', link: threadLink(t.id) };
      p.sessions++;
      if ((t.updatedAt ?? '') > p.last) p.last = t.updatedAt ?? '';
      projects.set(t.project, p);
    }
    for (const m of recent) {
      if (!m.project) continue;
      const p = projects.get(m.project) ?? { sessions: 0, memories: 0, last: '', link: m.link };
      p.memories++;
      if (m.updated_at > p.last) p.last = m.updated_at;
      projects.set(m.project, p);
    }
    return [...projects.entries()]
      .sort(
        ([pa, a], [pb, b]) =>
          b.sessions + b.memories - (a.sessions + a.memories) ||
          (a.last < b.last ? 1 : a.last > b.last ? -1 : 0) ||
          (pa < pb ? -1 : pa > pb ? 1 : 0),
      )
      .slice(0, LIMITS.focus)
      .map(([path, p]) => {
        const counts = [
          p.sessions ? plural(p.sessions, 'session', 'sessions') : '',
          p.memories ? plural(p.memories, 'memory', 'memories') : '',
        ].filter(Boolean);
        return {
          text: `${display(path)}: ${counts.join(', ')}; last active ${dayOf(p.last)}`,
          link: p.link,
          source: 'project' as const,
          at: p.last || null,
          project: path,
        };
      });
  }

  /** The handoff heuristics over the end of each recently active session (read once). */
  function mined(sessions: ThreadRecord[]): { thread: ThreadRecord; handoff: Handoff }[] {
    return sessions.slice(0, LIMITS.minedSessions).map((thread) => ({
      thread,
      handoff: buildHandoff(threads.stepWindow(thread.id, Number.MAX_SAFE_INTEGER, LIMITS.minedSteps, 0), {
        project: thread.project,
        maxDecisions: LIMITS.perSessionDecisions,
      }),
    }));
  }

  /**
   * Session steps already captured as a memory, whatever became of it: the memory speaks for the
   * step (or, superseded or forgotten, the step is no longer a standing decision).
   */
  function capturedSteps(space: string): Set<string> {
    const out = new Set<string>();
    for (const m of memories.list({ space, status: 'all', limit: LIMITS.scan }).memories) {
      const p = m.provenance;
      if (!p?.thread || p.step_from === null) continue;
      const to = Math.min(p.step_to ?? p.step_from, p.step_from + 50);
      for (let s = p.step_from; s <= to; s++) out.add(threadLink(p.thread, s));
    }
    return out;
  }

  const where = (t: ThreadRecord) => (t.project ? ` (${base(t.project)})` : '');

  return function generate(space: string, day: string): { section: WmSectionName; items: WmItem[] }[] {
    const { start, end } = windowOf(day);
    const sessions = threads
      .listThreads({ since: start, until: end }, LIMITS.scan, 0)
      .filter((t) => !t.parentId && threadSpace(t) === space);
    const recent = memories.list({ space, since: start, until: end, limit: LIMITS.scan }).memories;
    const mine = mined(sessions);
    const captured = capturedSteps(space);

    const decisions = unique([
      ...recent
        .filter((m) => m.unit_type === 'decision')
        .slice(0, LIMITS.decisionMemories)
        .map(memoryItem),
      ...mine.flatMap(({ thread, handoff }) =>
        handoff.decisions
          .filter((d) => !captured.has(threadLink(thread.id, d.step)))
          .slice(-LIMITS.perSessionDecisions)
          .reverse()
          .map((d) => ({
            text: `${oneLine(d.text, ITEM_CHARS)}${where(thread)}`,
            link: threadLink(thread.id, d.step),
            source: 'session' as const,
            at: thread.updatedAt ?? null,
            project: thread.project ?? null,
          })),
      ),
    ]).slice(0, LIMITS.decisions);

    // Plans stay open until superseded or forgotten, however old: not limited to the window.
    const plans = memories
      .list({ space, types: 'plan', until: end, limit: 200 })
      .memories.sort(
        (a, b) =>
          b.importance - a.importance ||
          (a.updated_at < b.updated_at ? 1 : a.updated_at > b.updated_at ? -1 : 0) ||
          (a.id < b.id ? -1 : 1),
      )
      .slice(0, LIMITS.planMemories);
    const loops = unique([
      ...plans.map((m) => ({ ...memoryItem(m), text: `Plan: ${memoryText(m)}` })),
      ...mine.flatMap(({ thread, handoff }) =>
        handoff.next.slice(0, LIMITS.perSessionLoops).map((n) => ({
          text: `${oneLine(n.text, ITEM_CHARS)}${where(thread)}`,
          link: threadLink(thread.id, n.step),
          source: 'session' as const,
          at: thread.updatedAt ?? null,
        })),
      ),
    ]).slice(0, LIMITS.openLoops);

    const recentSessions = sessions.slice(0, LIMITS.sessions).map((t) => ({
      text: [
        dayOf(t.updatedAt),
        oneLine(t.title || '(untitled)', 100),
        t.agent,
        t.project ? display(t.project) : '',
      ]
        .filter(Boolean)
        .join(' · '),
      link: threadLink(t.id),
      source: 'session' as const,
      at: t.updatedAt ?? null,
      project: t.project ?? null,
    }));

    return [
      { section: 'focus', items: focus(sessions, recent) },
      { section: 'decisions', items: decisions },
      { section: 'open-loops', items: loops },
      { section: 'sessions', items: recentSessions },
    ];
  };
}
