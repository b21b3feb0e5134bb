/**
 * Test support for the skills and wiki contract tests: several processes (each with its own
 * connection or file handle) write the same skill or wiki page at the same moment. Each child
 * opens the stores, says `ready`, and writes when the parent sends `go` to all of them at once.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TestContext } from 'node:test';
import type { BackendKind, Stores } from '../../src/ports/stores.js';
import { openTestStores } from '../support/backends.js';

export type RaceKind = 'skill' | 'wiki' | 'wiki-new';

export interface RaceResult {
  ok: boolean;
  /** What the service returned (ok) … */
  result?: Record<string, unknown>;
  /** … or the TapedeckError it threw. */
  code?: string;
  message?: string;
}

const ROOT = resolve(import.meta.dirname, '..', '..');

const CHILD = `
import { createInterface } from 'node:readline';
import { openSqliteStores } from '${ROOT}/src/storage/sqlite/stores.ts';
import { openPostgresStores } from '${ROOT}/src/storage/postgres/stores.ts';
import { createSkillsService } from '${ROOT}/src/services/skills/service.ts';
import { createWikiService } from '${ROOT}/src/services/wiki.ts';

const [kind, location, what, n] = process.argv.slice(2);
const stores = kind === 'sqlite' ? openSqliteStores(location) : openPostgresStores(location);
const resolveSpace = ({ space }) => space ?? 'default';
const skills = createSkillsService({ store: stores.skills, resolveSpace, threadStep: () => 'no-thread' });
const wiki = createWikiService({ store: stores.wiki, resolveSpace });
// Warm up: connected and every statement path loaded before the start signal.
skills.list();
// (The child runs as CommonJS: no top-level await.)
wiki.list().then(() => process.stdout.write('ready\\n'));
createInterface({ input: process.stdin }).once('line', async () => {
  let out;
  try {
    // The wiki answers a promise (its store is async), the skills service at once: await both.
    const result =
      what === 'skill'
        ? await skills.add({ name: 'race', description: 'Use when racing, writer ' + n, body: 'writer ' + n })
        : await wiki.write('race.md', '# Race\\nwriter ' + n, what === 'wiki-new' ? { expectedVersion: 0 } : {});
    out = { ok: true, result };
  } catch (e) {
    out = { ok: false, code: e.code, message: e.message };
  }
  process.stdout.write(JSON.stringify(out) + '\\n');
  stores.close();
  process.exit(0);
});
`;

/**
 * Run `writers` processes that all write at once into fresh stores (a new SQLite file or
 * PostgreSQL schema): their outcomes in child order, and the stores to look at afterwards.
 */
export async function raceWriters(
  t: TestContext,
  kind: BackendKind,
  what: RaceKind,
  writers: number,
): Promise<{ results: RaceResult[]; stores: Stores }> {
  const s = openTestStores(kind);
  t.after(s.cleanup);
  const dir = mkdtempSync(join(tmpdir(), 'tapedeck-race-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const script = join(dir, 'child.ts');
  writeFileSync(script, CHILD);
  const location = kind === 'sqlite' ? s.stores.location : s.url!;
  const children = Array.from({ length: writers }, (_, n) =>
    spawn(process.execPath, ['--import', 'tsx', script, kind, location, what, String(n)], {
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    }),
  );
  const lines = children.map((c) => {
    let buf = '';
    let err = '';
    c.stderr.on('data', (d) => (err += d));
    const waiters: ((line: string) => void)[] = [];
    const queue: string[] = [];
    c.stdout.on('data', (d) => {
      buf += d;
      for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        const w = waiters.shift();
        if (w) w(line);
        else queue.push(line);
      }
    });
    const next = () =>
      new Promise<string>((ok, fail) => {
        const q = queue.shift();
        if (q !== undefined) return ok(q);
        waiters.push(ok);
        c.once('exit', (code) => fail(new Error(`child exited ${code} before answering: ${err}`)));
      });
    return next;
  });
  const timer = setTimeout(() => {
    for (const c of children) c.kill();
  }, 60_000);
  try {
    for (const next of lines) assert(await next(), 'ready');
    for (const c of children) c.stdin.write('go\n');
    const results = await Promise.all(lines.map(async (next) => JSON.parse(await next()) as RaceResult));
    return { results, stores: s.stores };
  } finally {
    clearTimeout(timer);
    for (const c of children) c.stdin.end();
  }
}

function assert(got: string, want: string): void {
  if (got !== want) throw new Error(`child said "${got}", expected "${want}"`);
}
