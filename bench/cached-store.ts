/**
 * The benchmark corpus's SQLite store, built once per size and kept in bench/.data: later runs
 * (bench/http.ts, bench/web.ts) copy it instead of generating and indexing the corpus again.
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { loadConfig } from '../src/app/config.js';
import { createEngine } from '../src/app/engine.js';
import { generateCorpus } from './generate.js';

const DATA = join(import.meta.dirname, '.data');

/**
 * Puts the `steps`-step corpus's store at `<tapedeckHome>/tapedeck.db` (env: the run's HOME/TAPEDECK_HOME)
 * and returns the corpus folder (its questions.jsonl is there unless the corpus was deleted since).
 */
export async function cachedStore(
  steps: number,
  tapedeckHome: string,
  env: Record<string, string>,
  log: (line: string) => void,
): Promise<string> {
  const corpus = join(DATA, `corpus-${steps}-s1`);
  const db = join(DATA, `tapedeck-${steps}-s1.db`);
  const target = join(tapedeckHome, 'tapedeck.db');
  if (existsSync(db)) {
    log(`copying ${db}`);
    const src = new Database(db, { readonly: true, fileMustExist: true });
    await src.backup(target);
    src.close();
    return corpus;
  }
  if (!existsSync(join(corpus, 'manifest.json'))) {
    log(`generating a ${steps}-step corpus`);
    rmSync(corpus, { recursive: true, force: true });
    await generateCorpus({ out: corpus, steps, seed: 1 });
  }
  log('indexing');
  const engine = createEngine(loadConfig({}, env), { locateHome: corpus });
  engine.transcripts.index();
  engine.close();
  const made = new Database(target, { readonly: true, fileMustExist: true });
  await made.backup(db);
  made.close();
  return corpus;
}
