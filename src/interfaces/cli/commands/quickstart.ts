import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../../app/config.js';
import { createEngine } from '../../../app/engine.js';
import { packagePath } from '../../../app/package-path.js';
import { posixQuote } from '../../../core/shell-quote.js';
import type { GlobalFlags } from '../context.js';
import { formatIndexSummary, formatSearch } from '../format.js';
import { print, printJson, tildify } from '../output.js';

/** The bundled sample sessions (examples/home mirrors a user's $HOME). */
export const EXAMPLES_HOME = packagePath('examples', 'home');

const DEMO_QUERY = 'why did we drop the redis cache?';
const REAL_QUERY = 'decided instead of because';

/** Whether `npx` runs us (it sets npm_command=exec), so printed commands can say `npx tapedeck`. */
const invokedByNpx = () => process.env.npm_command === 'exec';

/**
 * A search of the demo store that works when pasted as printed: it names the demo store with
 * --db and skips the index refresh (--no-index), which would read the real home — not the
 * samples — and drop the sample sessions from the demo store.
 */
export function demoSearch(me: string, dbPath: string, query = 'flaky test rounding'): string {
  return `${me} search "${query}" --db ${posixQuote(dbPath)} --no-index`;
}

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
    const result = await engine.transcripts.search(query, { limit: 5 });
    if (flags.json) return printJson({ demo, store: engine.config.dbPath, index: summary, search: result });
    print(
      demo
        ? `No agent transcripts found under ${tildify(config.home)}; indexing the bundled sample sessions into ${tildify(engine.config.dbPath)}.`
        : `Found ${onDisk} transcript files from your agents; indexing into ${tildify(engine.config.dbPath)}.`,
    );
    print(formatIndexSummary(summary));
    print('');
    const me = invokedByNpx() ? 'npx tapedeck' : 'tapedeck';
    // In the demo every printed command names the demo store, so each works as pasted.
    const store = demo ? ` --db ${posixQuote(engine.config.dbPath)}` : '';
    print(`$ ${demo ? demoSearch(me, engine.config.dbPath, query) : `${me} search "${query}"`}`);
    print(formatSearch(result, store));
    print('');
    print(
      demo
        ? `Explore the samples: ${demoSearch(me, engine.config.dbPath)}`
        : `Next: ${me} search "<your question>", ${me} threads, ${me} show <thread> --step N, ${me} mcp`,
    );
  } finally {
    engine.close();
  }
}
