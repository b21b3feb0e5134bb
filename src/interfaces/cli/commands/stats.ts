import type { Engine } from '../../../app/engine.js';
import { isTapedeckError } from '../../../core/errors.js';
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
    // Meaning vectors (`tapedeck embed`); null where the store is another machine's (client mode).
    let meaning: ReturnType<Engine['meaning']['status']> | null;
    try {
      meaning = engine.meaning.status();
    } catch (e) {
      if (!(isTapedeckError(e) && e.code === 'UNSUPPORTED')) throw e;
      meaning = null;
    }
    if (flags.json) return printJson({ ...s, archive, meaning });
    if (missing) return print(`${NOTHING_INDEXED} (the store will be ${tildify(missing)})`);
    print(
      `${tildify(s.path)}: ${s.threads} threads, ${s.steps} steps, ${s.files} files, ${(s.dbBytes / 1048576).toFixed(1)} MB`,
    );
    print(formatArchive(archive));
    if (meaning)
      print(
        meaning.embedded > 0
          ? `meaning: ${meaning.embedded} of ${meaning.total} prompts, replies and summaries have a vector (${meaning.model})`
          : 'meaning: off (`tapedeck embed` gives steps a vector, so search also finds answers worded differently)',
      );
    for (const [agent, a] of Object.entries(s.perAgent)) {
      print(
        `  ${agent.padEnd(12)} ${String(a.threads).padStart(6)} threads ${String(a.steps).padStart(8)} steps   last ${a.lastUpdated?.slice(0, 16).replace('T', ' ') ?? '—'}`,
      );
    }
  } finally {
    engine.close();
  }
}
