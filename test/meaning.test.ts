/**
 * Closeness in meaning, end to end with the real local model, on every backend: `tapedeck embed`
 * (status, a resumable --limit, JSON), search lifting the step that says the same thing in other
 * words above a step that only shares a word, `--no-meaning` giving back the words-alone ranking,
 * the same through MCP and through a CLI in client mode, and vectors going with what they were made from (a rewritten line, a forgotten thread).
 */
import assert from 'node:assert/strict';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BACKENDS, backendHome } from './support/backends.js';
import { BIN, tapedeck } from './support/cli.js';
import { claudeLine, claudePath } from './support/home.js';
import { ownerClient, startServe } from './support/serve.js';

const SESSION = '00000000-0000-4000-8000-00000000beef';
const TURNS = [
  'The weekend deploy of the billing service moved to Sunday night, after the database migration.',
  'Noted, I moved the weekend deploy of the billing service in the runbook.',
  'Big news: at the weekend we adopted a retired racing greyhound from the shelter!',
  'Congratulations! Greyhounds sleep twenty hours a day, she will love your sofa.',
];
/** Shares only "weekend" with every turn: the words alone cannot tell the answer (step 2). */
const QUESTION = 'what pet joined the family at the weekend?';

const transcript = (turns: string[]) =>
  `${turns.map((t, i) => claudeLine(SESSION, i % 2 ? 'assistant' : 'user', t)).join('\n')}\n`;

for (const backend of BACKENDS)
  describe(`meaning (${backend.name})`, { skip: backend.skip }, () => {
    const h = backendHome(backend.name);
    after(() => h.cleanup());
    const run = (...args: string[]) => {
      const r = tapedeck(args, h.env);
      assert.equal(r.status, 0, r.stderr);
      return r;
    };
    const search = (...flags: string[]) =>
      run('search', '--json', '--explain', '--no-index', ...flags, QUESTION).json();
    const status = () => run('embed', '--status', '--json').json();

    it('ranks by words alone until steps have vectors, and embeds them resumably', () => {
      h.write(claudePath(SESSION), transcript(TURNS));
      assert.match(
        run('index').stdout,
        /Search by meaning is off: `tapedeck embed` gives the 4 prompts and replies a vector/,
      );
      const before = search();
      assert.equal(before.reading.meaning, false);
      assert.ok(before.hits.every((x: { explain: { meaning: number } }) => x.explain.meaning === 0));
      assert.notEqual(before.hits[0].step, 2, 'the words alone put a deploy step first');
      assert.deepEqual(status(), { model: 'use-lite-512', embedded: 0, total: 4 });

      const first = run('embed', '--limit', '1', '--json').json();
      assert.equal(first.added, 1);
      assert.equal(first.embedded, 1);
      const rest = run('embed', '--json').json();
      assert.deepEqual([rest.added, rest.embedded, rest.total], [3, 4, 4]);
      assert.equal(run('embed', '--json').json().added, 0, 'nothing left to embed');
      assert.deepEqual(run('stats', '--json').json().meaning, {
        model: 'use-lite-512',
        embedded: 4,
        total: 4,
      });
      assert.match(run('stats').stdout, /meaning: 4 of 4 prompts, replies and summaries have a vector/);
    });

    it('lifts the step that says the same in other words, and --no-meaning gives the words alone back', () => {
      const r = search();
      assert.equal(r.reading.meaning, true);
      assert.equal(r.hits[0].step, 2, JSON.stringify(r.hits.map((x: { step: number }) => x.step)));
      const answer = r.hits[0].explain.meaning;
      const deploy = r.hits.find((x: { step: number }) => x.step === 0).explain.meaning;
      assert.ok(answer > deploy, `the adoption is closer in meaning (${answer}) than the deploy (${deploy})`);
      const sum = Object.values(r.hits[0].explain as Record<string, number>).reduce((a, b) => a + b, 0);
      assert.ok(Math.abs(sum - r.hits[0].score) < 0.01, 'the components still add up to the score');
      const words = search('--no-meaning');
      assert.equal(words.reading.meaning, false);
      assert.notEqual(words.hits[0].step, 2);
    });

    it('MCP recall over stdio weighs meaning too', async () => {
      const client = new Client({ name: 'meaning-test', version: '1.0.0' });
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [BIN, 'mcp'],
          env: h.env,
          stderr: 'pipe',
        }),
      );
      try {
        const r = (await client.callTool({
          name: 'recall',
          arguments: { query: QUESTION, in: 'sessions', limit: 3 },
        })) as unknown as { isError?: boolean; structuredContent: { hits: { link: string }[] } };
        assert.ok(!r.isError);
        assert.equal(r.structuredContent.hits[0]!.link, `tapedeck://thread/claude-code:${SESSION}#2`);
      } finally {
        await client.close();
      }
    });

    it("a CLI in client mode gets the same answer: its search runs on the server, with the server's vectors", async () => {
      const server = await startServe(h.env);
      const c = ownerClient(server, h.tapedeckHome);
      const client = c.env;
      try {
        const remote = tapedeck(['search', '--json', '--explain', '--no-index', QUESTION], client);
        assert.equal(remote.status, 0, remote.stderr);
        assert.equal(remote.json().reading.meaning, true);
        assert.equal(remote.json().hits[0].step, 2);
        const words = tapedeck(
          ['search', '--json', '--explain', '--no-index', '--no-meaning', QUESTION],
          client,
        );
        assert.equal(words.json().reading.meaning, false);
        assert.notEqual(words.json().hits[0].step, 2);
        // The server's own route: meaning by default, words alone with meaning=false.
        const get = async (extra: string) =>
          (await (
            await fetch(`${server.url}/v1/search?q=${encodeURIComponent(QUESTION)}&explain=true${extra}`, {
              headers: server.owner,
            })
          ).json()) as { reading: { meaning: boolean }; hits: { step: number }[] };
        const viaHttp = await get('');
        assert.deepEqual([viaHttp.reading.meaning, viaHttp.hits[0]!.step], [true, 2]);
        assert.equal((await get('&meaning=false')).reading.meaning, false);
      } finally {
        await server.stop();
        c.cleanup();
      }
    });

    it('drops a vector when its text changes and when its thread is forgotten', () => {
      const changed = [...TURNS];
      changed[2] = 'Big news: at the weekend we repainted the kitchen a pale green.';
      h.write(claudePath(SESSION), transcript(changed));
      run('index');
      assert.equal(status().embedded, 3, 'the rewritten step lost its vector');
      run('forget', `claude-code:${SESSION}`, '--yes');
      assert.deepEqual(status(), { model: 'use-lite-512', embedded: 0, total: 0 });
    });

    it('finds a step that shares no word with the question among the steps nearest in meaning', () => {
      const other = '00000000-0000-4000-8000-00000000cafe';
      const turns = [
        'Can you check why the nightly backup job failed on the staging server?',
        'The backup failed because the disk on staging was full; I removed the old snapshots.',
        'Thanks, that did it.',
        'Glad to hear it.',
        'Unrelated: my daughter started violin lessons this month.',
        'Lovely! She will be playing concertos in no time.',
      ];
      h.write(
        claudePath(other),
        `${turns.map((t, i) => claudeLine(other, i % 2 ? 'assistant' : 'user', t)).join('\n')}\n`,
      );
      assert.match(run('index').stdout, /by meaning is off: `tapedeck embed` gives the 6 prompts/);
      run('embed');
      appendFileSync(join(h.home, claudePath(other)), `${claudeLine(other, 'user', 'One more thing.')}\n`);
      assert.doesNotMatch(run('index').stdout, /by meaning is off/, 'steps have vectors: no hint');
      // Only "backup" is in the index: the words alone find the backup steps, never the violin.
      const question = 'besides the backup, what instrument is my kid learning?';
      const steps = (...flags: string[]) =>
        run('search', '--json', '--no-index', ...flags, question)
          .json()
          .hits.map((x: { step: number }) => x.step);
      assert.ok(!steps('--no-meaning').includes(4), 'the words alone do not find it');
      assert.ok(steps().includes(4), `with meaning it is among the hits: ${steps()}`);
      // Nonsense finds nothing, not the nearest steps.
      assert.equal(run('search', '--json', '--no-index', 'qqzvx flurbn').json().hits.length, 0);
    });
  });
