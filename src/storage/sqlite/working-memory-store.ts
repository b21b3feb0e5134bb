/** SQLite implementation of the WorkingMemoryStore port (schema: migrations/007-working-memory.ts). */
import { WM_SECTIONS, type WmItem, type WmSectionName } from '../../core/working-memory.js';
import type { StoredBriefing, WorkingMemoryStore } from '../../ports/working-memory-store.js';
import { lazyStatements } from './lazy-statements.js';
import { type Db, sqliteGuard } from './open.js';

interface BriefingRow {
  fingerprint: string;
  generated_at: string;
}

interface SectionRow {
  section: string;
  items: string;
  generated_at: string;
  edit: string | null;
  edited_at: string | null;
}

const ORDER = new Map<string, number>(WM_SECTIONS.map((s, i) => [s, i]));

export function createSqliteWorkingMemoryStore(db: Db): WorkingMemoryStore {
  const path = db.name;
  const st = lazyStatements(db, {
    briefing: 'SELECT fingerprint, generated_at FROM working_memory WHERE space = ? AND day = ?',
    sections:
      'SELECT section, items, generated_at, edit, edited_at FROM working_memory_sections WHERE space = ? AND day = ?',
    putBriefing: `INSERT INTO working_memory (space, day, fingerprint, generated_at) VALUES (?, ?, ?, ?)
      ON CONFLICT (space, day) DO UPDATE SET fingerprint = excluded.fingerprint, generated_at = excluded.generated_at`,
    putGenerated: `INSERT INTO working_memory_sections (space, day, section, items, generated_at) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT (space, day, section) DO UPDATE SET items = excluded.items, generated_at = excluded.generated_at`,
    putEdit: `INSERT INTO working_memory_sections (space, day, section, edit, edited_at) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT (space, day, section) DO UPDATE SET edit = excluded.edit, edited_at = excluded.edited_at`,
    getEdit: 'SELECT edit FROM working_memory_sections WHERE space = ? AND day = ? AND section = ?',
    threads: `SELECT COUNT(*) AS n, MAX(updated_at) AS last, TOTAL(step_count) AS steps
      FROM threads WHERE updated_at >= ?`,
    // Each an index lookup or a range of the window's memories: cheap at any store size.
    memoryMax: `SELECT (SELECT MAX(mid) FROM memories) AS mid,
      (SELECT MAX(updated_at) FROM memories WHERE space = ? AND status = 'active') AS active,
      (SELECT MAX(updated_at) FROM memories WHERE space = ? AND status = 'superseded') AS superseded,
      (SELECT MAX(updated_at) FROM memories WHERE space = ? AND status = 'forgotten') AS forgotten,
      (SELECT COUNT(*) FROM memories WHERE space = ? AND status = 'active' AND updated_at >= ?) AS recent`,
  });

  const guard = sqliteGuard(path);

  return {
    writable: !db.readonly,

    get(space, day) {
      return guard(() => {
        const b = st.briefing.get(space, day) as BriefingRow | undefined;
        if (!b) return undefined;
        const rows = (st.sections.all(space, day) as SectionRow[]).filter((r) => ORDER.has(r.section));
        rows.sort((a, z) => ORDER.get(a.section)! - ORDER.get(z.section)!);
        const out: StoredBriefing = {
          space,
          day,
          fingerprint: b.fingerprint,
          generatedAt: b.generated_at,
          sections: rows.map((r) => ({
            section: r.section as WmSectionName,
            items: JSON.parse(r.items) as WmItem[],
            generatedAt: r.generated_at,
            edit: r.edit,
            editedAt: r.edited_at,
          })),
        };
        return out;
      });
    },

    saveGenerated({ space, day, fingerprint, generatedAt, sections }) {
      guard(() =>
        db
          .transaction(() => {
            st.putBriefing.run(space, day, fingerprint, generatedAt);
            for (const s of sections)
              st.putGenerated.run(space, day, s.section, JSON.stringify(s.items), generatedAt);
          })
          .immediate(),
      );
    },

    setEdit(space, day, section, text, at) {
      return guard(() =>
        db
          .transaction(() => {
            const old = st.getEdit.get(space, day, section) as { edit: string | null } | undefined;
            if ((old?.edit ?? null) === text) return false;
            st.putEdit.run(space, day, section, text, text === null ? null : at);
            return true;
          })
          .immediate(),
      );
    },

    fingerprint(space, since) {
      return guard(() => {
        const t = st.threads.get(since) as { n: number; last: string | null; steps: number };
        const m = st.memoryMax.get(space, space, space, space, since) as Record<
          string,
          string | number | null
        >;
        return [
          `t${t.n}:${t.last ?? ''}:${t.steps}`,
          m.mid,
          m.active,
          m.superseded,
          m.forgotten,
          m.recent,
        ].join('|');
      });
    },
  };
}
