/**
 * Sessions per day: how many threads were active on each calendar day (a thread counts on every
 * day from its start to its last step), split by agent and project. The web page draws its
 * activity chart from this, and a day's sessions are `threads(since: day start, until: day end)`
 * — the same overlap rule the thread listing uses, so a bar's count and its list agree.
 */
import type { SearchFilters, ThreadRecord, TranscriptStore } from '../ports/transcript-store.js';

export interface TimelineDay {
  /** YYYY-MM-DD in the caller's time zone (`utcOffsetMinutes`). */
  date: string;
  sessions: number;
  agents: Record<string, number>;
  projects: Record<string, number>;
}

export interface Timeline {
  days: TimelineDay[];
  /** Distinct sessions counted (a session spanning days is one session here). */
  sessions: number;
  /** Minutes east of UTC the days were cut at. */
  utc_offset: number;
}

const DAY_MS = 86_400_000;
/** A session counts on at most this many days (one left open for a year is not 365 bars). */
const MAX_DAYS_PER_SESSION = 62;
const PAGE = 5000;

const dayOf = (ms: number, offsetMs: number) => new Date(ms + offsetMs).toISOString().slice(0, 10);

/** Count the threads under `filters` per day; days come out oldest first, days without sessions left out. */
export function buildTimeline(
  store: TranscriptStore,
  filters: SearchFilters,
  utcOffsetMinutes = 0,
): Timeline {
  const offsetMs = utcOffsetMinutes * 60_000;
  const byDay = new Map<string, TimelineDay>();
  let sessions = 0;
  const count = (t: ThreadRecord) => {
    const start = Date.parse(t.startedAt ?? t.updatedAt ?? '');
    if (Number.isNaN(start)) return;
    const end = Math.max(start, Date.parse(t.updatedAt ?? '') || start);
    sessions++;
    // Walk local midnights from the start day to the end day (bounded by the filter window).
    const lo = Math.max(start, filters.since ? Date.parse(filters.since) : start);
    const hi = Math.min(end, filters.until ? Date.parse(filters.until) : end);
    let day = Math.floor((lo + offsetMs) / DAY_MS) * DAY_MS - offsetMs;
    for (let n = 0; day <= hi && n < MAX_DAYS_PER_SESSION; n++, day += DAY_MS) {
      const date = dayOf(day, offsetMs);
      let d = byDay.get(date);
      if (!d) {
        d = { date, sessions: 0, agents: {}, projects: {} };
        byDay.set(date, d);
      }
      d.sessions++;
      d.agents[t.agent] = (d.agents[t.agent] ?? 0) + 1;
      const p = t.project ?? '';
      d.projects[p] = (d.projects[p] ?? 0) + 1;
    }
  };
  for (let offset = 0; ; offset += PAGE) {
    const page = store.listThreads(filters, PAGE, offset);
    for (const t of page) count(t);
    if (page.length < PAGE) break;
  }
  const days = [...byDay.values()].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  return { days, sessions, utc_offset: utcOffsetMinutes };
}
