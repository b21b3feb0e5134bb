/**
 * The redaction boundary (app/redacting-stores.ts): every method of every store port, found by
 * reflection over a real backend's stores, hands its backend arguments with no secret left in any
 * string field at any depth — also through writers given to callbacks — so a stored field or a
 * port method added later cannot skip it. Then the knowledge fields the issue names (memory
 * labels, wiki paths, saved-message external ids, key names, titles) go through the real services
 * into a real SQLite file and an export, and neither holds the secret.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { redactingStores } from '../src/app/redacting-stores.js';
import type { Stores } from '../src/ports/stores.js';
import { openSqliteStores } from '../src/storage/sqlite/stores.js';
import { tempHome } from './support/home.js';

const SECRET = ['ghp_', 'Pl4nt3dS3cr3tT0k3nAbCdEfGhIjKlMnOpQr'].join('');
const SCALARS = new Set(['kind', 'location', 'capabilities', 'transaction', 'writeAll', 'remask', 'close']);

/** A value with the secret in every shape a field can take: top level, nested, in lists. */
const planted = () => ({
  id: SECRET,
  text: `fix it with ${SECRET}`,
  labels: [SECRET, `token ${SECRET}`],
  nested: { deep: [{ deeper: `Bearer ${SECRET}` }] },
  count: 3,
});

const names = (o: object): string[] => {
  const out = new Set<string>();
  for (let p: object | null = o; p && p !== Object.prototype; p = Object.getPrototypeOf(p))
    for (const n of Object.getOwnPropertyNames(p)) if (n !== 'constructor') out.add(n);
  return [...out];
};

describe('the store boundary', () => {
  test('no method of any port hands its backend a secret, in any field, also via callbacks', async () => {
    const h = tempHome();
    const real = openSqliteStores(join(h.tapedeckHome, 'reflect.db'));
    try {
      const seen: { port: string; method: string; args: unknown[] }[] = [];
      // A spy backend with exactly the real ports and methods; writers given to callbacks are spies too.
      const spyOf = (port: string, obj: object): object => {
        const spy: Record<string, unknown> = {};
        for (const method of names(obj)) {
          if (typeof (obj as Record<string, unknown>)[method] !== 'function') continue;
          spy[method] = (...args: unknown[]) => {
            seen.push({ port, method, args });
            for (const a of args)
              if (typeof a === 'function') a(spyOf(`${port}.${method}→writer`, writerShape(port, method)));
            return undefined;
          };
        }
        return spy;
      };
      // The writer a callback gets: the real one's method names (memories.write, skills.write, …).
      // Found up front: an async port (rules) hands its writer over only after a tick.
      const shapes = new Map<string, object>();
      const ports = Object.keys(real).filter((k) => !SCALARS.has(k));
      for (const port of ports)
        for (const method of names(real[port as keyof Stores] as object)) {
          const fn = (real[port as keyof Stores] as unknown as Record<string, unknown>)[method];
          if (typeof fn !== 'function') continue;
          try {
            const out = fn.call(real[port as keyof Stores], (w: object) => {
              shapes.set(`${port}.${method}`, Object.fromEntries(names(w).map((n) => [n, () => {}])));
              throw new Error('shape only');
            });
            if (out instanceof Promise) await out.catch(() => {});
          } catch {
            // expected: the callback throws once it has seen the writer (or the method wants other arguments)
          }
        }
      const writerShape = (port: string, method: string): object => shapes.get(`${port}.${method}`) ?? {};
      assert.ok(ports.length >= 10, `ports found: ${ports.join(', ')}`);
      const spyStores = Object.fromEntries(
        Object.keys(real).map((k) => [
          k,
          SCALARS.has(k) ? real[k as keyof Stores] : spyOf(k, real[k as keyof Stores] as object),
        ]),
      ) as unknown as Stores;
      const wrapped = redactingStores(spyStores);
      let methods = 0;
      for (const port of ports) {
        const p = wrapped[port as keyof Stores] as unknown as Record<string, unknown>;
        assert.ok(p, `port ${port} is wrapped`);
        for (const method of names(real[port as keyof Stores] as object)) {
          if (typeof p[method] !== 'function') continue;
          methods++;
          const args: unknown[] = [SECRET, planted(), [planted()], `${SECRET} again`, planted()];
          // Callbacks: the writer they get is used with planted arguments too.
          args.push((w: Record<string, (...a: unknown[]) => unknown>) => {
            for (const m of Object.keys(w)) w[m](SECRET, planted(), [planted()]);
          });
          (p[method] as (...a: unknown[]) => unknown)(...args);
        }
      }
      assert.ok(methods >= 80, `${methods} methods called`);
      assert.ok(
        seen.some((s) => s.port.includes('writer')),
        'writers handed to callbacks were reached',
      );
      const leaked = seen.filter((s) => JSON.stringify(s.args).includes(SECRET));
      assert.deepEqual(
        leaked.map((s) => `${s.port}.${s.method}`),
        [],
      );
    } finally {
      real.close();
      h.cleanup();
    }
  });
});

function filesText(dir: string): string {
  let out = '';
  const walk = (p: string) => {
    if (statSync(p).isDirectory()) for (const n of readdirSync(p)) walk(join(p, n));
    else out += readFileSync(p, 'latin1');
  };
  walk(dir);
  return out;
}

describe('knowledge fields through the services', () => {
  test('labels, wiki paths, external ids, key names and titles are stored and exported redacted', async () => {
    const h = tempHome();
    const engine = h.engine();
    try {
      const m = engine.memories.add({
        content: 'Deploys go through the staging gate first',
        title: `Deploy with token=${SECRET}`,
        labels: ['deploy', SECRET],
      });
      assert.ok(m);
      await engine.rules.add({ title: `Rule ${SECRET}`, body: `Never paste ${SECRET}` });
      await engine.wiki.write(
        `notes/deploy ${SECRET}.md`,
        `# Token
use ${SECRET}`,
        {},
      );
      engine.savedThreads.import({
        id: 'saved-1',
        title: `Session about ${SECRET}`,
        messages: [
          { role: 'user', content: 'first question', external_id: SECRET },
          { role: 'assistant', content: 'an answer', external_id: `msg:${SECRET}` },
        ],
      });
      await engine.keys.create({ name: `ci ${SECRET}`, scope: 'read' });
      const out = join(h.tapedeckHome, '..', 'export');
      await engine.portability.export(out);
      engine.close();
      const db = new Database(join(h.tapedeckHome, 'tapedeck.db'));
      db.pragma('wal_checkpoint(TRUNCATE)');
      db.close();
      // Labels are stored lower-cased: look for both spellings.
      const found = (text: string) =>
        text.includes(SECRET) || text.toLowerCase().includes(SECRET.toLowerCase());
      assert.equal(found(filesText(h.tapedeckHome)), false, 'no secret in the store files');
      assert.equal(found(filesText(out)), false, 'no secret in the export');
      assert.ok(
        filesText(h.tapedeckHome).includes('Deploys go through the staging gate'),
        'the rest is stored',
      );
    } finally {
      h.cleanup();
    }
  });
});
