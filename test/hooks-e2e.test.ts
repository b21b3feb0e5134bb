/**
 * Hooks end to end, as the hosts run them: `tapedeck hook <agent> <event>` as a child process with a
 * recorded host payload on stdin (test/fixtures/hooks/), in a home whose path has spaces and
 * non-ASCII letters, against the local store.
 */
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { tapedeck } from './support/cli.js';
import { claudeLine } from './support/home.js';
import {
  AGENTS,
  type Agent,
  hookWorld,
  readLog,
  runHook,
  SESSIONS,
  waitIdle,
  waitSaved,
} from './support/hooks.js';

const START: Record<Agent, string> = {
  antigravity: 'PreInvocation',
  'claude-code': 'SessionStart',
  codex: 'SessionStart',
  'gemini-cli': 'SessionStart',
};
const SAVE: Record<Agent, string> = {
  antigravity: 'Stop',
  'claude-code': 'SessionEnd',
  codex: 'Stop',
  'gemini-cli': 'SessionEnd',
};
const thread = (a: Agent) => `${a}:${SESSIONS[a].id}`;

function cli(args: string[], env: Record<string, string>) {
  const r = tapedeck(args, env);
  assert.equal(r.status, 0, `tapedeck ${args.join(' ')}: ${r.stderr}`);
  return r;
}

function stepCount(env: Record<string, string>, id: string): number {
  const threads = cli(['threads', '--json', '--limit', '100'], env).json().threads as {
    id: string;
    step_count: number;
  }[];
  const found = threads.find((x) => x.id === id);
  assert.ok(found, `thread ${id} listed`);
  return found.step_count;
}

describe('session start: the context bundle', () => {
  const w = hookWorld();
  before(() => {
    cli(
      [
        'memory',
        'add',
        '--project',
        w.project,
        '--title',
        'Staging database',
        'The staging DB is db-stage-2',
      ],
      w.env,
    );
  });
  after(() => w.cleanup());

  for (const agent of AGENTS)
    it(`${agent} ${START[agent]} gets it in the host's shape`, async () => {
      const r = await runHook(agent, START[agent], w.payload(agent, START[agent]), w.env);
      assert.equal(r.status, 0, r.stderr);
      const out = r.json();
      const text: string =
        agent === 'antigravity'
          ? out.injectSteps?.[0]?.ephemeralMessage
          : out.hookSpecificOutput?.additionalContext;
      assert.match(text ?? '', /db-stage-2/, `context for ${agent}: ${r.stdout}`);
      assert.match(text, /^<tapedeck_context/);
      if (agent !== 'antigravity') assert.equal(out.hookSpecificOutput.hookEventName, 'SessionStart');
    });

  it('antigravity injects once per conversation, only on the first invocation', async () => {
    const again = await runHook(
      'antigravity',
      'PreInvocation',
      w.payload('antigravity', 'PreInvocation'),
      w.env,
    );
    assert.deepEqual(again.json(), {});
    const later = await runHook(
      'antigravity',
      'PreInvocation',
      w.payload('antigravity', 'PreInvocation-later'),
      w.env,
    );
    assert.deepEqual(later.json(), {});
  });

  it('a memory added since is in the next bundle (the cached bundle is exact)', async () => {
    const first = await runHook(
      'claude-code',
      'SessionStart',
      w.payload('claude-code', 'SessionStart'),
      w.env,
    );
    assert.match(first.stdout, /db-stage-2/);
    cli(
      ['memory', 'add', '--project', w.project, '--title', 'Package manager', 'Use pnpm 9, never npm'],
      w.env,
    );
    const next = await runHook(
      'claude-code',
      'SessionStart',
      w.payload('claude-code', 'SessionStart'),
      w.env,
    );
    assert.match(next.stdout, /pnpm 9/);
    assert.match(readLog(w.tapedeckHome), /context from cache/);
  });
});

describe('session end: the session is saved', () => {
  const w = hookWorld();
  after(() => w.cleanup());

  for (const agent of AGENTS)
    it(`${agent} ${SAVE[agent]} saves; the thread is found by tapedeck search`, async () => {
      w.place(agent);
      const r = await runHook(agent, SAVE[agent], w.payload(agent, SAVE[agent]), w.env);
      assert.equal(r.status, 0, r.stderr);
      assert.deepEqual(r.json(), {});
      const saved = await waitSaved(w.tapedeckHome, thread(agent));
      assert.equal(saved.target, 'local');
      const hits = cli(
        ['search', SESSIONS[agent].word, '--agent', agent, '--json', '--no-index'],
        w.env,
      ).json().hits;
      assert.ok(
        hits.some((h: { thread: string }) => h.thread === thread(agent)),
        `${thread(agent)} in ${JSON.stringify(hits.map((h: { thread: string }) => h.thread))}`,
      );
    });

  it('antigravity does not save while background tasks run (fullyIdle false)', async () => {
    const before = readLog(w.tapedeckHome);
    const r = await runHook('antigravity', 'Stop', w.payload('antigravity', 'Stop-busy'), w.env);
    assert.deepEqual(r.json(), {});
    const added = readLog(w.tapedeckHome).slice(before.length);
    assert.match(added, /background tasks still running/);
    assert.doesNotMatch(added, /queued/);
  });

  it('status shows the last save per agent and this session as saved', async () => {
    const st = cli(['status', '--json', '--session', SESSIONS['claude-code'].id], w.env).json();
    assert.equal(st.session.thread, thread('claude-code'));
    assert.equal(st.session.saved, true);
    for (const agent of AGENTS) assert.equal(st.last_save[agent]?.thread, thread(agent));
    assert.equal(st.queue.waiting, 0);
  });
});

describe('bad input: always valid JSON for the host, exit 0', () => {
  const w = hookWorld({ TAPEDECK_HOOK_NO_WORKER: '1' });
  after(() => w.cleanup());
  const events: [Agent, string][] = [
    ['antigravity', 'PreInvocation'],
    ['antigravity', 'PreToolUse'],
    ['antigravity', 'Stop'],
    ['claude-code', 'SessionStart'],
    ['claude-code', 'Stop'],
    ['codex', 'Stop'],
    ['gemini-cli', 'SessionEnd'],
  ];

  it('empty, malformed and wrong-typed stdin', async () => {
    const cases = events.flatMap(([agent, event]) =>
      ['', '{"session_id": ', '[1, 2]'].map((input) => ({ agent, event, input })),
    );
    const runs = [];
    // three at a time: a busy machine must not turn this into a test of the budget timer
    for (let i = 0; i < cases.length; i += 3)
      runs.push(
        ...(await Promise.all(
          cases
            .slice(i, i + 3)
            .map(async (c) => ({ ...c, r: await runHook(c.agent, c.event, c.input, w.env) })),
        )),
      );
    for (const { agent, event, input, r } of runs) {
      assert.equal(r.status, 0, `${agent} ${event} ${JSON.stringify(input)}: ${r.stderr}`);
      const out = r.json();
      if (event === 'PreToolUse') assert.equal(out.decision, 'ask');
      assert.ok(r.stderr.length > 0, 'the reason is on stderr');
    }
    const log = readLog(w.tapedeckHome);
    assert.match(log, /empty stdin/);
    assert.match(log, /stdin is not JSON/);
    assert.match(log, /no session id in the hook payload/);
    const st = cli(['status', '--json'], w.env).json();
    assert.match(st.last_error.message, /no session id/);
  });

  it('an unknown agent or event still answers', async () => {
    for (const [agent, event] of [
      ['cursor', 'Stop'],
      ['claude-code', 'Notification'],
    ]) {
      const r = await runHook(agent, event, '{}', w.env);
      assert.equal(r.status, 0);
      assert.deepEqual(r.json(), {});
    }
  });

  it('a spent budget answers the safe default at once', async () => {
    const r = await runHook('antigravity', 'PreToolUse', w.payload('antigravity', 'PreToolUse'), {
      ...w.env,
      TAPEDECK_HOOK_BUDGET_MS: '1',
    });
    assert.equal(r.status, 0);
    assert.equal(r.json().decision, 'ask');
    assert.match(readLog(w.tapedeckHome), /budget ran out/);
  });
});

describe('idempotent capture', () => {
  const w = hookWorld();
  after(() => w.cleanup());

  it('a duplicate save, a resumed session and two hooks at once never duplicate a message', async () => {
    // a clean session (the recorded fixture ends in a half-written line, on purpose)
    const sid = SESSIONS['claude-code'].id;
    const cc = join(w.home, SESSIONS['claude-code'].to);
    mkdirSync(dirname(cc), { recursive: true });
    const turn = (i: number) => [
      claudeLine(sid, 'user', `Step ${i}: make the products page handle page=${i}`),
      claudeLine(sid, 'assistant', `Done with step ${i}: offset is (page - 1) * size, clamped at 0`),
    ];
    writeFileSync(cc, `${[...turn(1), ...turn(2)].join('\n')}\n`);
    w.place('codex');
    await runHook('claude-code', 'Stop', w.payload('claude-code', 'Stop'), w.env);
    await waitSaved(w.tapedeckHome, thread('claude-code'));
    await waitIdle(w.tapedeckHome);
    const n = stepCount(w.env, thread('claude-code'));
    assert.equal(n, 4);

    // the same session saved again, twice at once, alongside another agent's session
    await Promise.all([
      runHook('claude-code', 'Stop', w.payload('claude-code', 'Stop'), w.env),
      runHook('claude-code', 'SessionEnd', w.payload('claude-code', 'SessionEnd'), w.env),
      runHook('codex', 'Stop', w.payload('codex', 'Stop'), w.env),
    ]);
    await waitSaved(w.tapedeckHome, thread('codex'));
    await waitIdle(w.tapedeckHome);
    assert.equal(stepCount(w.env, thread('claude-code')), n, 'no duplicates');
    assert.ok(stepCount(w.env, thread('codex')) > 3);

    // the session resumed: one more turn, saved at PreCompact
    appendFileSync(cc, `${turn(3).join('\n')}\n`);
    await runHook('claude-code', 'PreCompact', w.payload('claude-code', 'PreCompact'), w.env);
    await waitIdle(w.tapedeckHome);
    assert.equal(stepCount(w.env, thread('claude-code')), n + 2);
    assert.equal(cli(['status', '--json'], w.env).json().queue.waiting, 0);
  });
});

describe('the queue', () => {
  const w = hookWorld({ TAPEDECK_HOOK_NO_WORKER: '1' });
  after(() => w.cleanup());

  it('a corrupted queue file is moved aside and reported; good items are still saved', async () => {
    w.place('gemini-cli');
    await runHook('gemini-cli', 'SessionEnd', w.payload('gemini-cli', 'SessionEnd'), w.env);
    const queue = join(w.tapedeckHome, 'queue');
    const files = readdirSync(queue).filter((f) => f.endsWith('.json'));
    assert.equal(files.length, 1, 'queued (no worker in this test)');
    writeFileSync(join(queue, 'save-crashed.json'), '{"v":1,"kind":"save","agent":"codex","sessi');
    writeFileSync(join(queue, 'save-empty.json'), '');
    const r = cli(['queue', 'flush', '--json'], w.env).json();
    assert.deepEqual(r.bad.map((b: { file: string }) => b.file).sort(), [
      'save-crashed.json',
      'save-empty.json',
    ]);
    assert.equal(r.saved.length, 1);
    assert.equal(readdirSync(join(queue, 'bad')).length, 2);
    assert.ok(!existsSync(join(queue, 'save-crashed.json')));
    const st = cli(['status', '--json'], w.env).json();
    assert.equal(st.queue.corrupted, 2);
    assert.equal(st.ok, false);
    assert.match(st.last_error.message, /corrupted queue file/);
    const start = await runHook(
      'claude-code',
      'SessionStart',
      w.payload('claude-code', 'SessionStart'),
      w.env,
    );
    assert.match(start.json().systemMessage, /2 corrupted queue files set aside/);
  });

  it('an item left by a crashed worker is recovered, and a stale lock is taken over', async () => {
    w.place('codex');
    await runHook('codex', 'Stop', w.payload('codex', 'Stop'), w.env);
    const queue = join(w.tapedeckHome, 'queue');
    const [file] = readdirSync(queue).filter((f) => f.endsWith('.json'));
    mkdirSync(join(queue, 'processing'), { recursive: true });
    writeFileSync(join(queue, 'processing', `crashed.${file}`), readFileSync(join(queue, file)));
    writeFileSync(join(queue, file).replace('.json', '.tmp'), 'partial write');
    // a lock held by a process that no longer exists
    writeFileSync(
      join(queue, '.lock'),
      JSON.stringify({ pid: 2 ** 22 + 12345, at: Date.now(), host: (await import('node:os')).hostname() }),
    );
    const r = cli(['queue', 'flush', '--json'], w.env).json();
    assert.equal(r.ran, true);
    assert.equal(r.recovered, 1);
    assert.ok(r.saved.some((s: { thread: string }) => s.thread === thread('codex')));
    assert.equal(r.waiting, 0);
    assert.match(readLog(w.tapedeckHome), /took over a stale queue lock/);
  });

  it('a transcript not written yet: the save is retried and made once it exists', async () => {
    await runHook('antigravity', 'Stop', w.payload('antigravity', 'Stop'), w.env);
    let r = cli(['queue', 'flush', '--json'], w.env).json();
    assert.equal(r.saved.length, 0);
    assert.match(r.failed[0].error, /not in the local store after indexing antigravity/);
    assert.equal(r.waiting, 1, 'still queued');
    assert.equal(cli(['status', '--json'], w.env).json().queue.retrying, 1);
    w.place('antigravity');
    r = cli(['queue', 'flush', '--json'], w.env).json();
    assert.deepEqual(
      r.saved.map((x: { thread: string }) => x.thread),
      [thread('antigravity')],
    );
    assert.equal(r.waiting, 0);
  });

  it('hooks.log stays bounded', async () => {
    const log = join(w.tapedeckHome, 'hooks.log');
    writeFileSync(log, 'x'.repeat(300 * 1024));
    await runHook('claude-code', 'Stop', '', w.env);
    assert.ok(readFileSync(log, 'utf8').length < 4096);
    assert.ok(existsSync(`${log}.1`));
  });
});
