/**
 * A PostgreSQL server that goes away and comes back: `tapedeck serve` answers 503 with a clear
 * message while it is gone, stays up (/livez), and serves again without a restart once it is
 * back, with nothing written before lost. The outage is real: the server reaches PostgreSQL
 * through a TCP relay that the test closes and reopens; connections are also killed server-side.
 */
import assert from 'node:assert/strict';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { after, before, test } from 'node:test';
import { connectPgSync } from '../src/storage/postgres/sync-client.js';
import { freshSchema, PG_URL, POSTGRES } from './support/backends.js';
import { type TempHome, tempHome } from './support/home.js';
import { json } from './support/http.js';
import { type ServeProcess, startServe } from './support/serve.js';

/** A TCP relay to the test server that can be cut and restored on the same port. */
function relay(target: URL) {
  let server: Server | undefined;
  const sockets = new Set<Socket>();
  let port = 0;
  const open = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = connect(Number(target.port || 5432), target.hostname);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => {});
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as { port: number }).port;
        resolve();
      });
    });
  const cut = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server?.close(() => resolve());
    });
  return { open, cut, port: () => port };
}

/** Only this test's server connections carry this name (other tests share the database server). */
const APP = `tapedeck_outage_${process.pid}`;
let h: TempHome;
let serve: ServeProcess;
let schema: ReturnType<typeof freshSchema>;
let link: ReturnType<typeof relay>;

const req = (path: string, json?: unknown) =>
  fetch(serve.url + path, {
    method: json === undefined ? 'GET' : 'POST',
    headers: json === undefined ? serve.owner : { ...serve.owner, 'content-type': 'application/json' },
    body: json === undefined ? undefined : JSON.stringify(json),
  });

before(async () => {
  if (POSTGRES.skip) return;
  schema = freshSchema();
  link = relay(new URL(PG_URL!));
  await link.open();
  const viaRelay = new URL(schema.url);
  viaRelay.port = String(link.port());
  viaRelay.searchParams.set('application_name', APP);
  h = tempHome({ TAPEDECK_DATABASE_URL: viaRelay.toString() });
  serve = await startServe(h.env);
});

after(async () => {
  await serve?.stop();
  await link?.cut();
  h?.cleanup();
  schema?.drop();
});

test('the database going away gives 503s, the server stays up, and it recovers by itself', {
  skip: POSTGRES.skip,
}, async () => {
  const before = await req('/v1/memories', { content: 'The staging database is rebuilt every Sunday night' });
  assert.equal(before.status, 201, await before.clone().text());
  const id = (await json(before)).id;

  await link.cut();
  const down = await req('/v1/memories/search?q=staging%20database');
  assert.equal(down.status, 503);
  const body = await json(down);
  assert.equal(body.error.code, 'STORAGE_UNAVAILABLE');
  assert.match(body.error.message, /PostgreSQL server .* is unavailable/);
  assert.doesNotMatch(body.error.message, /password/);
  assert.equal((await req('/livez')).status, 200, 'the process is alive');
  assert.equal((await req('/health')).status, 503, 'health says the store is down');
  const write = await req('/v1/memories', { content: 'This write happens during the outage' });
  assert.equal(write.status, 503, 'a write during the outage is refused, not half-done');

  await link.open();
  const back = await req('/v1/memories/search?q=staging%20database');
  assert.equal(back.status, 200, await back.clone().text());
  assert.deepEqual(
    (await json(back)).hits.map((x: { id: string }) => x.id),
    [id],
  );
  assert.equal((await req('/health')).status, 200);
  const after = await req('/v1/memories', { content: 'This write happens after the outage' });
  assert.equal(after.status, 201);
  const all = await json(await req('/v1/memories?limit=10'));
  assert.equal(all.memories.length, 2, 'nothing lost, nothing from the refused write');
});

/** Write a wiki page (the wiki store is on the pool, not the synchronous client). */
const putPage = (path: string, content: string) =>
  fetch(`${serve.url}/v1/wiki/pages/${path}`, {
    method: 'PUT',
    headers: { ...serve.owner, 'content-type': 'application/json' },
    body: JSON.stringify({ content }),
  });

test('wiki pages: 503 while the database is away, nothing half-written, served again when it is back', {
  skip: POSTGRES.skip,
}, async () => {
  const first = await putPage('ops/rebuild.md', '# Rebuild\n\nThe staging wiki is rebuilt on Sundays.\n');
  assert.equal(first.status, 201, await first.clone().text());

  await link.cut();
  const down = await req('/v1/wiki/search?q=rebuilt');
  assert.equal(down.status, 503);
  const body = await json(down);
  assert.equal(body.error.code, 'STORAGE_UNAVAILABLE');
  assert.match(body.error.message, /PostgreSQL server .* is unavailable/);
  assert.doesNotMatch(body.error.message, /password/);
  const write = await putPage('ops/rebuild.md', '# Rebuild\n\nWritten during the outage.\n');
  assert.equal(write.status, 503, 'a write during the outage is refused');
  assert.equal((await req('/livez')).status, 200, 'the process is alive');

  await link.open();
  const back = await req('/v1/wiki/search?q=rebuilt');
  assert.equal(back.status, 200, await back.clone().text());
  assert.deepEqual(
    (await json(back)).hits.map((x: { path: string }) => x.path),
    ['ops/rebuild.md'],
  );
  const history = await json(await req('/v1/wiki/history/ops/rebuild.md'));
  assert.deepEqual(
    history.versions.map((v: { version: number }) => v.version),
    [1],
    'the refused write left no version',
  );
});

test('connections killed on the database side are replaced on the next request', {
  skip: POSTGRES.skip,
}, async () => {
  const admin = connectPgSync(PG_URL!);
  try {
    const killed = admin.query<{ ok: boolean }>(
      `SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity
        WHERE application_name = $1`,
      [APP],
    );
    assert.ok(killed.length >= 1, 'the server had a connection to kill');
  } finally {
    admin.close();
  }
  const r = await req('/v1/memories/search?q=staging%20database');
  assert.equal(r.status, 200, await r.clone().text());
  assert.equal((await json(r)).hits.length, 1);
});
