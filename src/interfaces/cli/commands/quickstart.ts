import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../../app/config.js';
import { createEngine } from '../../../app/engine.js';
import { packagePath } from '../../../app/package-path.js';
import type { GlobalFlags } from '../context.js';
import { formatIndexSummary, formatSearch } from '../format.js';
import { print, printJson, tildify } from '../output.js';

/** The bundled sample sessions (examples/home mirrors a user's $HOME). */
export const EXAMPLES_HOME = packagePath('examples', 'home');

const DEMO_QUERY = 'why did we drop the redis cache?';
const REAL_QUERY = 'decided instead of because';

/**
 * The first-run experience: index the agents' transcripts on this machine — or, when there are
 * none, the bundled samples into a separate demo store — and show a search.
 */
export async function runQuickstart(flags: GlobalFlags & { query?: string }): Promise<void> {
  const config = loadConfig({ home: flags.home, db: flags.db });
  const probe = createEngine(config);
  const onDisk = Object.values(probe.locate()).reduce((n, files) => n + files.length, 0);
  probe.close();
  const demo = onDisk === 0;
  if (demo && !existsSync(EXAMPLES_HOME)) throw new Error(`bundled samples missing at ${EXAMPLES_HOME}`);
  const engine = demo
    ? createEngine(
        { ...config, dbPath: join(config.tapedeckHome, 'demo', 'tapedeck.db') },
        { locateHome: EXAMPLES_HOME },
      )
    : createEngine(config);
  try {
    const summary = engine.transcripts.index();
    const query = flags.query ?? (demo ? DEMO_QUERY : REAL_QUERY);
    const result = engine.transcripts.search(query, { limit: 5 });
    if (flags.json) return printJson({ demo, store: engine.config.dbPath, index: summary, search: result });
    print(
      demo
        ? `No agent transcripts found under ${tildify(config.home)}; indexing the bundled sample sessions into ${tildify(engine.config.dbPath)}.`
        : `Found ${onDisk} transcript files from your agents; indexing into ${tildify(engine.config.dbPath)}.`,
    );
    print(formatIndexSummary(summary));
    print('');
    print(`$ tapedeck search "${query}"`);
    print(formatSearch(result));
    print('');
    print(
      demo
        ? `Explore the samples: TAPEDECK_DB=${tildify(engine.config.dbPath)} tapedeck search "flaky test rounding"`
        : 'Next: tapedeck search "<your question>", tapedeck threads, tapedeck show <thread> --step N, tapedeck mcp',
    );
  } finally {
    engine.close();
  }
}
