/** Opening a brand-new database from several processes at once migrates it exactly once. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import { BIN } from './support/cli.js';
import { tempHome } from './support/home.js';

test('four processes opening a new database at once all succeed', async () => {
  const h = tempHome();
  after(h.cleanup);
  const runs = Array.from(
    { length: 4 },
    () =>
      new Promise<{ code: number | null; err: string; out: string }>((resolve) => {
        const c = spawn(process.execPath, [BIN, 'index', '--json'], { env: h.env });
        let err = '';
        let out = '';
        c.stdout.on('data', (d) => {
          out += String(d);
        });
        c.stderr.on('data', (d) => {
          err += String(d);
        });
        c.on('exit', (code) => resolve({ code, err, out }));
      }),
  );
  // `index --json` reports a failure as JSON on stdout: both streams say why.
  for (const r of await Promise.all(runs)) assert.equal(r.code, 0, `${r.err}${r.out}`);
  const db = new Database(join(h.tapedeckHome, 'tapedeck.db'), { readonly: true });
  const version = db.pragma('user_version', { simple: true });
  db.close();
  assert.ok(Number(version) >= 8);
});
