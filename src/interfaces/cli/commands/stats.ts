import { type GlobalFlags, openEngine } from '../context.js';
import { print, printJson, tildify } from '../output.js';

export async function runStats(flags: GlobalFlags): Promise<void> {
  const engine = openEngine(flags);
  try {
    const s = engine.stats();
    if (flags.json) return printJson(s);
    print(
      `${tildify(s.path)}: ${s.threads} threads, ${s.steps} steps, ${s.files} files, ${(s.dbBytes / 1048576).toFixed(1)} MB`,
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
