/**
 * Client mode: with TAPEDECK_API_URL the CLI and the MCP stdio server work on a Tapedeck server
 * (started here as a real `tapedeck serve` process, on each backend) with the same commands and
 * output, write nothing locally, see only their key's spaces, and fail clearly when the server
 * is down or the key is wrong.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BACKENDS, backendHome } from './support/backends.js';
import { BIN, tapedeck } from './support/cli.js';
import { claudeLine, claudePath, type TempHome } from './support/home.js';
import { ownerClient, type ServeProcess, startServe } from './support/serve.js';

const S1 = '7a7a7a7a-1111-4222-8333-444444444444';

/** JSON output without the fields that measure time. */
const timeless = (v: unknown): unknown =>
  JSON.parse(JSON.stringify(v, (k, x) => (/^(took|elapsed)/i.test(k) ? undefined : x)));

for (const b of BACKENDS) {
  describe(`client mode against a ${b.name} server`, { skip: b.skip }, () => {
    let h: TempHome;
    let server: ServeProcess;
    let clientRoot: string;
    let client: Record<string, string>;

    before(async () => {
      h = backendHome(b.name);
      h.write(
        claudePath(S1),
        [
          claudeLine(S1, 'user', 'Why does the invoice exporter drop the VAT column?'),
          claudeLine(
            S1,
            'assistant',
            'The CSV writer skipped empty headers; we fixed vatColumnIndex in exporter.ts.',
          ),
        ].join('\n') + '\n',
      );
      server = await startServe(h.env);
      const c = ownerClient(server, h.tapedeckHome);
      clientRoot = c.root;
      client = c.env;
    });
    after(async () => {
      await server?.stop();
      h?.cleanup();
      rmSync(clientRoot, { recursive: true, force: true });
    });

    test('search, show and threads give the same answers as on the server, and nothing is stored locally', () => {
      const idx = tapedeck(['index', '--json'], client);
      assert.equal(idx.status, 0, idx.stderr);
      const remote = tapedeck(['search', 'invoice VAT column', '--json'], client);
      assert.equal(remote.status, 0, remote.stderr);
      const local = tapedeck(['search', 'invoice VAT column', '--json', '--no-index'], h.env);
      assert.equal(local.status, 0, local.stderr);
      const hits = remote.json().hits;
      assert.ok(hits.length > 0, 'the server indexed its transcripts');
      assert.equal(hits[0].thread, `claude-code:${S1}`);
      assert.deepEqual(timeless(remote.json()), timeless(local.json()));
      const show = tapedeck(['show', `claude-code:${S1}`], client);
      assert.equal(show.status, 0, show.stderr);
      // Paths are the server's: the client cannot shorten them to ~ (its home is elsewhere).
      assert.equal(
        show.stdout.replaceAll(h.home, '~'),
        tapedeck(['show', `claude-code:${S1}`], h.env).stdout,
      );
      assert.match(show.stdout, /vatColumnIndex/);
      assert.equal(
        tapedeck(['threads'], client).stdout.replaceAll(h.home, '~'),
        tapedeck(['threads'], h.env).stdout,
        'the thread list is the server’s',
      );
      assert.equal(
        existsSync(join(clientRoot, 'tapedeck', 'tapedeck.db')),
        false,
        'no local store was created',
      );
    });

    test('memories and rules written through the client land on the server', () => {
      const add = tapedeck(
        ['memory', 'add', 'Invoices are exported as UTF-8 CSV with a BOM for Excel', '--json'],
        client,
      );
      assert.equal(add.status, 0, add.stderr);
      const id = add.json().id;
      const found = tapedeck(['memory', 'search', 'invoice CSV Excel', '--json'], h.env).json();
      assert.deepEqual(
        found.hits.map((x: { id: string }) => x.id),
        [id],
      );
      const rule = tapedeck(
        ['rules', 'add', '--title', 'CSV', 'Always add a BOM to CSV exports', '--json'],
        client,
      );
      assert.equal(rule.status, 0, rule.stderr);
      assert.match(tapedeck(['rules', 'list'], h.env).stdout, /Always add a BOM/);
      // Each rules command is a catalogue operation run on its own route of the server.
      const ruleId = rule.json().id;
      const upd = tapedeck(
        ['rules', 'update', ruleId.slice(0, 8), '--owner', '@finance', '--disable', '--json'],
        client,
      );
      assert.equal(upd.status, 0, upd.stderr);
      assert.deepEqual([upd.json().owner, upd.json().enabled], ['@finance', false]);
      const onServer = tapedeck(['rules', 'list', '--json'], h.env)
        .json()
        .rules.find((r: { id: string }) => r.id === ruleId);
      assert.equal(onServer.owner, '@finance');
      assert.deepEqual(tapedeck(['rules', 'resolve', '--agent', 'codex', '--json'], client).json().rules, []);
      const bad = tapedeck(['rules', 'add', 'x', '--scope', 'agent:cursor', '--json'], client);
      assert.equal(bad.status, 2);
      assert.match(bad.json().error.message, /Unknown agent "cursor"/, 'the server’s words');
      assert.equal(tapedeck(['rules', 'remove', ruleId, '--yes', '--json'], client).json().removed, true);
      assert.equal(tapedeck(['rules', 'list', '--json'], h.env).json().rules.length, 0);
    });

    test('wiki pages written through the client land on the server, versions and conflicts kept', () => {
      const page = '# VAT\n\nThe exporter keeps the VAT column since vatColumnIndex was fixed.\n';
      const w = tapedeck(['wiki', 'write', 'runbooks/vat.md', '--content', page, '--json'], client);
      assert.equal(w.status, 0, w.stderr);
      assert.deepEqual([w.json().status, w.json().version], ['created', 1]);
      const stale = tapedeck(
        ['wiki', 'write', 'runbooks/vat.md', '--content', '# VAT\nelse', '--if-version', '0', '--json'],
        client,
      );
      assert.notEqual(stale.status, 0);
      assert.match(stale.stdout + stale.stderr, /CONFLICT[^]*version 1, not 0/);
      const found = tapedeck(['wiki', 'search', 'VAT column', '--json'], h.env);
      assert.equal(found.status, 0, found.stderr);
      assert.deepEqual(
        found.json().hits.map((x: { path: string }) => x.path),
        ['runbooks/vat.md'],
        'the server holds the page',
      );
      const shown = tapedeck(['wiki', 'show', 'runbooks/vat.md'], client);
      assert.equal(shown.status, 0, shown.stderr);
      assert.match(shown.stdout, /keeps the VAT column/);
    });

    test('a key sees only its spaces; a wrong key is refused; export stays on the server', () => {
      const key = tapedeck(
        ['keys', 'create', '--name', 'alpha', '--space', 'alpha', '--scope', 'write', '--json'],
        h.env,
      );
      assert.equal(key.status, 0, key.stderr);
      const secret = tapedeck(
        ['memory', 'add', 'The beta launch code name is Orchid', '--space', 'beta', '--json'],
        h.env,
      );
      assert.equal(secret.status, 0, secret.stderr);
      const keyed = { ...client, TAPEDECK_API_KEY: key.json().key };
      const mine = tapedeck(['memory', 'add', 'Alpha ships on Tuesdays', '--json'], keyed);
      assert.equal(mine.status, 0, mine.stderr);
      assert.equal(mine.json().space, 'alpha', 'the key pins its space');
      const search = tapedeck(['memory', 'search', 'launch code name Orchid', '--json'], keyed);
      assert.equal(search.status, 0, search.stderr);
      assert.equal(search.json().hits.length, 0, 'another space is invisible');
      const show = tapedeck(['memory', 'show', secret.json().id], keyed);
      assert.notEqual(show.status, 0);
      assert.match(show.stderr, /not found|no memory/i);
      const wrong = tapedeck(['memory', 'search', 'anything'], {
        ...client,
        TAPEDECK_API_KEY: 'tapedeck_wrongwrongwrong',
      });
      assert.notEqual(wrong.status, 0);
      assert.match(wrong.stderr, /key/i);
      const exp = tapedeck(['export', join(clientRoot, 'out')], client);
      assert.notEqual(exp.status, 0);
      assert.match(exp.stderr, /not in client mode/);
    });

    test('the MCP stdio server answers from the Tapedeck server', async () => {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [BIN, 'mcp'],
        env: client,
        stderr: 'pipe',
      });
      const mcp = new Client({ name: 'test', version: '1' });
      await mcp.connect(transport);
      try {
        const r = (await mcp.callTool({
          name: 'recall',
          arguments: { query: 'VAT column exporter', in: 'sessions' },
        })) as {
          content: { text: string }[];
          isError?: boolean;
        };
        assert.ok(!r.isError, r.content[0]?.text);
        assert.match(r.content.map((c) => c.text).join('\n'), new RegExp(S1));
      } finally {
        await mcp.close();
      }
    });
  });
}

test('a server that is not there gets a clear error and a failing exit code', () => {
  const root = mkdtempSync(join(tmpdir(), 'tapedeck-client-'));
  try {
    // The blocking client (memories) and the async one (rules) say the same.
    for (const args of [
      ['memory', 'search', 'anything'],
      ['rules', 'list'],
    ]) {
      const r = tapedeck(args, {
        HOME: root,
        TAPEDECK_HOME: join(root, 'h'),
        PATH: process.env.PATH ?? '',
        TAPEDECK_API_URL: 'http://127.0.0.1:9',
      });
      assert.notEqual(r.status, 0);
      assert.match(r.stderr, /server http:\/\/127\.0\.0\.1:9 is not answering/);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
