/**
 * PostgreSQL implementation of the WorkingMemoryStore port (tables from migration 007). Every
 * method is one statement (one round trip): a read joins the briefing to its sections, a save is
 * one statement writing the briefing and all its sections (atomic by itself), an edit compares and
 * writes in the statement's own WHERE, and the fingerprint gathers threads and memories at once.
 */
import { WM_SECTIONS, type WmItem, type WmSectionName } from '../../core/working-memory.js';
import type { StoredBriefing, WorkingMemoryStore } from '../../ports/working-memory-store.js';
import type { PgStore } from './open.js';

interface JoinedRow {
  fingerprint: string;
  generated_at: string;
  section: string | null;
  items: string | null;
  section_generated_at: string | null;
  edit: string | null;
  edited_at: string | null;
}

interface FingerprintRow {
  n: number;
  last: string | null;
  steps: number;
  mid: number | null;
  active: string | null;
  superseded: string | null;
  forgotten: string | null;
  recent: number;
}

const ORDER = new Map<string, number>(WM_SECTIONS.map((s, i) => [s, i]));

const GET = `SELECT w.fingerprint, w.generated_at, s.section, s.items, s.generated_at AS section_generated_at,
    s.edit, s.edited_at
  FROM working_memory w
  LEFT JOIN working_memory_sections s ON s.space = w.space AND s.day = w.day
  WHERE w.space = $1 AND w.day = $2`;

// The briefing row and every section's generated items in one statement; edits are not touched.
const SAVE = `WITH b AS (
    INSERT INTO working_memory (space, day, fingerprint, generated_at) VALUES ($1, $2, $3, $4)
    ON CONFLICT (space, day) DO UPDATE SET fingerprint = excluded.fingerprint, generated_at = excluded.generated_at
  )
  INSERT INTO working_memory_sections (space, day, section, items, generated_at)
  SELECT $1, $2, s.section, s.items, $4 FROM unnest($5::text[], $6::text[]) AS s(section, items)
  ON CONFLICT (space, day, section) DO UPDATE SET items = excluded.items, generated_at = excluded.generated_at`;

// Only a real change writes (and counts): the same text again leaves edited_at alone.
const SET_EDIT = `INSERT INTO working_memory_sections (space, day, section, edit, edited_at) VALUES ($1, $2, $3, $4, $5)
  ON CONFLICT (space, day, section) DO UPDATE SET edit = excluded.edit, edited_at = excluded.edited_at
  WHERE working_memory_sections.edit IS DISTINCT FROM excluded.edit`;

// Dropping an edit that is not there writes nothing (no empty row either).
const DROP_EDIT = `UPDATE working_memory_sections SET edit = NULL, edited_at = NULL
  WHERE space = $1 AND day = $2 AND section = $3 AND edit IS NOT NULL`;

// Each part an index lookup or a range of the window's rows, as on SQLite.
const FINGERPRINT = `SELECT t.n, t.last, t.steps, m.mid, m.active, m.superseded, m.forgotten, m.recent
  FROM (SELECT COUNT(*) AS n, MAX(updated_at) AS last, COALESCE(SUM(step_count), 0) AS steps
        FROM threads WHERE updated_at >= $2) t,
  (SELECT (SELECT MAX(mid) FROM memories) AS mid,
    (SELECT MAX(updated_at) FROM memories WHERE space = $1 AND status = 'active') AS active,
    (SELECT MAX(updated_at) FROM memories WHERE space = $1 AND status = 'superseded') AS superseded,
    (SELECT MAX(updated_at) FROM memories WHERE space = $1 AND status = 'forgotten') AS forgotten,
    (SELECT COUNT(*) FROM memories WHERE space = $1 AND status = 'active' AND updated_at >= $2) AS recent) m`;

export function createPgWorkingMemoryStore(db: PgStore): WorkingMemoryStore {
  const { pg } = db;
  return {
    writable: true,

    get(space, day) {
      const rows = pg.query<JoinedRow>(GET, [space, day]);
      if (rows.length === 0) return undefined;
      const sections = rows.filter(
        (r): r is JoinedRow & { section: string; items: string; section_generated_at: string } =>
          r.section !== null && ORDER.has(r.section),
      );
      sections.sort((a, z) => ORDER.get(a.section)! - ORDER.get(z.section)!);
      const out: StoredBriefing = {
        space,
        day,
        fingerprint: rows[0].fingerprint,
        generatedAt: rows[0].generated_at,
        sections: sections.map((r) => ({
          section: r.section as WmSectionName,
          items: JSON.parse(r.items) as WmItem[],
          generatedAt: r.section_generated_at,
          edit: r.edit,
          editedAt: r.edited_at,
        })),
      };
      return out;
    },

    saveGenerated({ space, day, fingerprint, generatedAt, sections }) {
      // One row per section, the last given winning, as SQLite's successive upserts would leave it
      // (one statement cannot upsert a row twice).
      const items = new Map(sections.map((s) => [s.section, JSON.stringify(s.items)]));
      pg.run(SAVE, [space, day, fingerprint, generatedAt, [...items.keys()], [...items.values()]]);
    },

    setEdit(space, day, section, text, at) {
      if (text === null) return pg.run(DROP_EDIT, [space, day, section]) > 0;
      return pg.run(SET_EDIT, [space, day, section, text, at]) > 0;
    },

    fingerprint(space, since) {
      const r = pg.one<FingerprintRow>(FINGERPRINT, [space, since])!;
      return [
        `t${r.n}:${r.last ?? ''}:${r.steps}`,
        r.mid,
        r.active,
        r.superseded,
        r.forgotten,
        r.recent,
      ].join('|');
    },
  };
}
