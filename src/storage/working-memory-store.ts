/**
 * The working-memory store, once for every backend (schema: migrations/007-working-memory.ts on
 * each), written against storage/sql.ts: a read joins the briefing to its sections, a save writes
 * the briefing and all its sections in one transaction, an edit compares and writes in the
 * upsert's own WHERE (so the same text again touches nothing), and the fingerprint gathers
 * threads and memories in one statement. No dialect code: both engines speak this SQL.
 */
import { WM_SECTIONS, type WmItem, type WmSectionName } from '../core/working-memory.js';
import type { StoredBriefing, WorkingMemoryStore } from '../ports/working-memory-store.js';
import { type SqlDb, sql } from './sql.js';

interface JoinedRow {
  fingerprint: string;
  generated_at: string;
  section: string | null;
  items: string | null;
  section_generated_at: string | null;
  edit: string | null;
  edited_at: string | null;
}

/** Counts and ids come back as numbers (SQLite) or strings (PostgreSQL BIGINT): both print alike. */
interface FingerprintRow {
  n: number | string;
  last: string | null;
  steps: number | string;
  mid: number | string | null;
  active: string | null;
  superseded: string | null;
  forgotten: string | null;
  recent: number | string;
}

const ORDER = new Map<string, number>(WM_SECTIONS.map((s, i) => [s, i]));

/** The working-memory store over either backend's database; `writable` false on a read-only file. */
export function createWorkingMemoryStore(db: SqlDb, { writable = true } = {}): WorkingMemoryStore {
  return {
    writable,

    async get(space, day) {
      const rows = await db.all<JoinedRow>(sql`
        SELECT w.fingerprint, w.generated_at, s.section, s.items, s.generated_at AS section_generated_at,
          s.edit, s.edited_at
        FROM working_memory w
        LEFT JOIN working_memory_sections s ON s.space = w.space AND s.day = w.day
        WHERE w.space = ${space} AND w.day = ${day}`);
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

    async saveGenerated({ space, day, fingerprint, generatedAt, sections }) {
      // One row per section, the last given winning (one statement cannot upsert a row twice).
      const items = new Map(sections.map((s) => [s.section, JSON.stringify(s.items)]));
      await db.transaction(async (tx) => {
        await tx.run(sql`
          INSERT INTO working_memory (space, day, fingerprint, generated_at)
          VALUES (${space}, ${day}, ${fingerprint}, ${generatedAt})
          ON CONFLICT (space, day) DO UPDATE SET fingerprint = excluded.fingerprint,
            generated_at = excluded.generated_at`);
        if (items.size === 0) return;
        // Edits are not touched, so a person's concurrent edit is not lost.
        await tx.run(sql`
          INSERT INTO working_memory_sections (space, day, section, items, generated_at)
          VALUES ${sql.join(
            [...items].map(([section, json]) => sql`(${space}, ${day}, ${section}, ${json}, ${generatedAt})`),
            ', ',
          )}
          ON CONFLICT (space, day, section) DO UPDATE SET items = excluded.items,
            generated_at = excluded.generated_at`);
      });
    },

    async setEdit(space, day, section, text, at) {
      // Dropping an edit that is not there writes nothing (no empty row either).
      if (text === null)
        return (
          (await db.run(sql`
            UPDATE working_memory_sections SET edit = NULL, edited_at = NULL
            WHERE space = ${space} AND day = ${day} AND section = ${section} AND edit IS NOT NULL`)) > 0
        );
      // Only a real change writes (and counts): the same text again leaves edited_at alone.
      return (
        (await db.run(sql`
          INSERT INTO working_memory_sections (space, day, section, edit, edited_at)
          VALUES (${space}, ${day}, ${section}, ${text}, ${at})
          ON CONFLICT (space, day, section) DO UPDATE SET edit = excluded.edit, edited_at = excluded.edited_at
          WHERE working_memory_sections.edit IS DISTINCT FROM excluded.edit`)) > 0
      );
    },

    async fingerprint(space, since) {
      // Each part an index lookup or a range of the window's rows: cheap at any store size.
      const r = (await db.one<FingerprintRow>(sql`
        SELECT t.n, t.last, t.steps, m.mid, m.active, m.superseded, m.forgotten, m.recent
        FROM (SELECT COUNT(*) AS n, MAX(updated_at) AS last, COALESCE(SUM(step_count), 0) AS steps
              FROM threads WHERE updated_at >= ${since}) t,
          (SELECT (SELECT MAX(mid) FROM memories) AS mid,
            (SELECT MAX(updated_at) FROM memories WHERE space = ${space} AND status = 'active') AS active,
            (SELECT MAX(updated_at) FROM memories WHERE space = ${space} AND status = 'superseded') AS superseded,
            (SELECT MAX(updated_at) FROM memories WHERE space = ${space} AND status = 'forgotten') AS forgotten,
            (SELECT COUNT(*) FROM memories
              WHERE space = ${space} AND status = 'active' AND updated_at >= ${since}) AS recent) m`))!;
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
