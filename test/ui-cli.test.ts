/**
 * `tapedeck ui` as a real child process, the cases the browser test does not reach: a port held
 * by something that refuses this home's token, and client mode (the remote server's page).
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { tapedeck } from './support/cli.js';
import { type TempHome, tempHome } from './support/home.js';

describe('tapedeck ui', () => {
  let h: TempHome;
  let foreign: ChildProcess;
  let port: number;
  before(async () => {
    h = tempHome();
    // Someone else's server, in its own process (the CLI runs synchronously here): 401 to everything.
    foreign = spawn(process.execPath, [
      '-e',
      `require('node:http').createServer((q, s) => s.writeHead(401).end('{}')).listen(0, '127.0.0.1', function () { console.log(this.address().port); });`,
    ]);
    port = await new Promise<number>((resolve) =>
      foreign.stdout!.once('data', (d) => resolve(Number(String(d).trim()))),
    );
  });
  after(() => {
    foreign?.kill();
    h?.cleanup();
  });

  test('a port held by a server that refuses the token is an error naming --port; nothing is started', () => {
    const r = tapedeck(['ui', '--port', String(port), '--no-open', '--json'], h.env);
    assert.equal(r.status, 1, r.stderr);
    const { error } = r.json();
    assert.equal(error.code, 'CONFLICT');
    assert.match(error.message, new RegExp(`Port ${port} answers 401.*--port`));
  });

  test('a bad --port is a usage error', () => {
    const r = tapedeck(['ui', '--port', 'abc', '--no-open'], h.env);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /--port must be a whole number/);
  });

  test('client mode links the remote server’s page, signed in with the configured key', () => {
    const env = {
      ...h.env,
      TAPEDECK_API_URL: 'http://tapedeck.internal:7420/',
      TAPEDECK_API_KEY: 'tapedeck_abc',
    };
    const r = tapedeck(['ui', '--json'], env);
    assert.equal(r.status, 0, r.stderr);
    const out = r.json();
    assert.equal(out.url, 'http://tapedeck.internal:7420/#token=tapedeck_abc');
    assert.equal(out.remote, true);
    assert.equal(out.started, false);
  });
});
