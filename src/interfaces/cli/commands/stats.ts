import { type GlobalFlags, missingStorePath, openEngine } from '../context.js';
import { NOTHING_INDEXED, print, printJson, tildify } from '../output.js';
import { formatArchive } from './doctor.js';

export async function runStats(flags: GlobalFlags): Promise<void> {
  const engine = openEngine(flags);
  try {
    const missing = missingStorePath(engine);
    // No store yet: the counts are the empty store's, the path is where it will be.
    const s = missing ? { ...engine.stats(), path: missing, dbBytes: 0 } : engine.stats();
    const archive = engine.archive ? { enabled: true, ...engine.archive.stats() } : { enabled: false };
    if (flags.json) return printJson({ ...s, archive });
    if (missing) return print(`${NOTHING_INDEXED} (the store will be ${tildify(missing)})`);
    print(
      `${tildify(s.path)}: ${s.threads} threads, ${s.steps} steps, ${s.files} files, ${(s.dbBytes / 1048576).toFixed(1)} MB`,
    );
    print(formatArchive(archive));
    for (const [agent, a] of Object.entries(s.perAgent)) {
      print(
        `  ${agent.padEnd(12)} ${String(a.threads).padStart(6)} threads ${String(a.steps).padStart(8)} steps   last ${a.lastUpdated?.slice(0, 16).replace('T', ' ') ?? '—'}`,
      );
    }
  } finally {
    engine.close();
  }
}
