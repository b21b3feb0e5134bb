/**
 * The CLI as a tool people script, through the built binary: `--json` is one JSON document on
 * stdout even for usage errors; every document uses one naming; colour follows the terminal and
 * NO_COLOR / FORCE_COLOR / TERM; completion scripts complete in real shells; every command's help
 * has an example; read commands leave a fresh machine as it was.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { commandPath } from '../src/interfaces/cli/define.js';
import { EXAMPLES } from '../src/interfaces/cli/help-examples.js';
import { buildProgram } from '../src/interfaces/cli/main.js';
import { BIN, tapedeck } from './support/cli.js';
import { claudeLine, claudePath, tempHome } from './support/home.js';

const S1 = '0c0c0c0c-1111-4222-8333-444444444444';

function seeded() {
  const h = tempHome();
  h.write(
    claudePath(S1),
    `${[
      claudeLine(S1, 'user', 'Why are prices stale after a promotion ends?', '2026-11-02T09:00:00.000Z'),
      claudeLine(S1, 'assistant', 'We decided to drop the Redis cache.', '2026-11-02T09:01:00.000Z'),
    ].join('\n')}\n`,
  );
  return h;
}

const has = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;

describe('--json usage errors are one JSON document on stdout, exit 2', () => {
  const h = tempHome();
  after(h.cleanup);
  const cases: [string, string[], string, string][] = [
    ['missing argument', ['search', '--json'], 'USAGE', 'missing_argument'],
    ['unknown option', ['threads', '--bogus', '--json'], 'USAGE', 'unknown_option'],
    ['unknown command', ['frobnicate', '--json'], 'USAGE', 'unknown_command'],
    ['unknown subcommand', ['memory', 'frob', '--json'], 'USAGE', 'unknown_command'],
    ['too many arguments', ['stats', 'extra', '--json'], 'USAGE', 'excess_arguments'],
    ['bad option value', ['search', 'x', '--limit', 'lots', '--json'], 'INVALID_INPUT', ''],
  ];
  for (const [what, args, code, reason] of cases)
    it(what, () => {
      const r = tapedeck(args, h.env);
      assert.equal(r.status, 2, r.stderr);
      const doc = JSON.parse(r.stdout); // throws unless stdout is exactly one JSON document
      assert.equal(doc.error.code, code);
      assert.equal(typeof doc.error.message, 'string');
      assert.doesNotMatch(doc.error.message, /^error:/);
      if (reason) assert.equal(doc.error.details.reason, reason);
      assert.equal(r.stderr, '', 'no human text beside the document');
    });
  it('without --json the message goes to stderr and stdout stays empty', () => {
    const r = tapedeck(['threads', '--bogus'], h.env);
    assert.equal(r.status, 2);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /unknown option '--bogus'/);
    const shell = tapedeck(['completion', 'tcsh'], h.env);
    assert.equal(shell.status, 2);
    assert.match(shell.stderr, /'tcsh' is invalid for argument 'shell'. Allowed choices are bash, zsh, fish/);
  });
});

/** Every key in a JSON value, with its path. */
function keys(v: unknown, path = '', out: string[] = []): string[] {
  if (Array.isArray(v)) for (const x of v) keys(x, `${path}[]`, out);
  else if (v && typeof v === 'object')
    for (const [k, x] of Object.entries(v)) {
      out.push(`${path}.${k}`);
      if (k !== 'per_agent' && k !== 'agents' && k !== 'metadata') keys(x, `${path}.${k}`, out);
    }
  return out;
}

describe('one naming for every JSON document', () => {
  it('snake_case everywhere, a thread is `thread` wherever it is referred to, unknown fields null', () => {
    const h = seeded();
    after(h.cleanup);
    const thread = `claude-code:${S1}`;
    const saved = join(h.home, 'chat.json');
    writeFileSync(
      saved,
      JSON.stringify({ title: 'T', source: 'cli', messages: [{ role: 'user', content: 'hi' }] }),
    );
    const docs = {
      index: tapedeck(['index', '--json'], h.env).json(),
      search: tapedeck(['search', 'redis cache', '--json'], h.env).json(),
      show: tapedeck(['show', thread, '--json'], h.env).json(),
      threads: tapedeck(['threads', '--json'], h.env).json(),
      stats: tapedeck(['stats', '--json'], h.env).json(),
      doctor: tapedeck(['doctor', '--json'], h.env).json(),
      import: tapedeck(['thread', 'import', '--file', saved, '--json'], h.env).json(),
    };
    for (const [name, doc] of Object.entries(docs))
      for (const k of keys(doc)) {
        assert.match(k, /^(\.[a-z0-9_]+|\[\])+$/, `${name}: ${k} is snake_case`);
        assert.doesNotMatch(k, /thread_id|threadId/, `${name}: ${k}`);
      }
    assert.equal(docs.search.hits[0].thread, thread);
    assert.ok(docs.show.steps.every((s: { thread: string }) => s.thread === thread));
    assert.equal(docs.show.thread.id, thread);
    assert.equal(typeof docs.import.thread, 'string', 'a saved thread is `thread` too');
    const listed = docs.threads.threads.find((t: { id: string }) => t.id === thread);
    assert.equal(listed.step_count, 2);
    assert.equal(listed.session_id, S1);
    assert.equal(listed.parent_id, null, 'no parent: null, not missing');
    assert.equal(docs.show.steps[0].tool, null, 'no tool: null, not missing');
    assert.equal(docs.stats.per_agent['claude-code'].steps, 2, 'data keys (agent ids) are not renamed');
    assert.equal(typeof docs.stats.db_bytes, 'number');
    assert.equal(docs.doctor.agents.find((a: { agent: string }) => a.agent === 'codex').files_on_disk, 0);
  });
});

describe('colour', () => {
  const h = seeded();
  after(h.cleanup);
  tapedeck(['index'], h.env);
  /** `threads` with stdout on a real terminal (util-linux `script` gives it a pty). */
  const onTerminal = (env: Record<string, string>) => {
    const cmd = `'${process.execPath}' '${BIN}' threads`;
    const r = spawnSync('script', ['-qec', cmd, '/dev/null'], {
      env: { ...h.env, TERM: 'xterm-256color', ...env },
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /Why are prices stale/);
    return r.stdout;
  };
  const styled = (s: string) => s.includes('\x1b[1m');
  it('bold on a terminal that takes colour', { skip: !has('script') }, () => {
    assert.ok(styled(onTerminal({})));
  });
  for (const env of [{ NO_COLOR: '1' }, { FORCE_COLOR: '0' }, { TERM: 'dumb' }] as Record<string, string>[])
    it(`none with ${JSON.stringify(env)}`, { skip: !has('script') }, () => {
      assert.ok(!styled(onTerminal(env)));
    });
  it('none when stdout is not a terminal', () => {
    const r = tapedeck(['threads'], { ...h.env, TERM: 'xterm-256color', FORCE_COLOR: '3' });
    assert.match(r.stdout, /Why are prices stale/);
    assert.ok(!r.stdout.includes('\x1b['));
  });
});

describe('tapedeck completion', () => {
  const h = tempHome();
  after(h.cleanup);
  const script = (shell: string) => {
    const r = tapedeck(['completion', shell], h.env);
    assert.equal(r.status, 0, r.stderr);
    const file = join(h.home, `completion.${shell}`);
    writeFileSync(file, r.stdout);
    return file;
  };
  const CASES: [string, string[]][] = [
    ['tapedeck mem', ['memory']],
    ['tapedeck memory a', ['add']],
    ['tapedeck --home /tmp/x skills ins', ['install']],
    ['tapedeck search --j', ['--json']],
    ['tapedeck search --limit 5 --l', ['--limit', '--local']],
    ['tapedeck search --agent c', ['claude-code', 'codex']],
    ['tapedeck completion ', ['bash', 'fish', 'zsh']],
  ];

  it('bash: sourced in a real bash, it completes commands, subcommands, options and values', () => {
    const file = script('bash');
    for (const [line, want] of CASES) {
      const words = line.split(' ');
      const r = spawnSync(
        'bash',
        [
          '-c',
          `source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _tapedeck; printf '%s\\n' "\${COMPREPLY[@]}"`,
          'bash',
          file,
          ...words,
        ],
        { encoding: 'utf8' },
      );
      assert.equal(r.status, 0, r.stderr);
      assert.deepEqual(r.stdout.split('\n').filter(Boolean).sort(), want, line);
    }
  });

  it('fish: `complete -C` in a real fish', { skip: !has('fish') }, () => {
    const file = script('fish');
    for (const [line, want] of CASES) {
      const r = spawnSync('fish', ['-c', `source $argv[1]; complete -C $argv[2]`, file, line], {
        encoding: 'utf8',
      });
      assert.equal(r.status, 0, r.stderr);
      const got = r.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('\t')[0]);
      // fish lists every candidate and filters by the typed prefix itself
      assert.deepEqual(got.sort(), want, line);
    }
  });

  it('zsh: the script loads in a real zsh and offers the right candidates', { skip: !has('zsh') }, () => {
    const file = script('zsh');
    assert.equal(spawnSync('zsh', ['-n', file]).status, 0, 'valid zsh');
    // zsh's completion widgets only run inside the line editor: stand in for the builtins the
    // script calls and check what it hands them (zsh itself filters by the typed prefix)
    const r = spawnSync(
      'zsh',
      [
        '-c',
        `compadd() { shift; print -rl -- "$@" }; _describe() { print -rl -- "\${(@P)4%%:*}" }; _files() { print FILES }
compdef() { : }; source "$1"; shift; words=("$@"); CURRENT=$#; _tapedeck`,
        'zsh',
        file,
        'tapedeck',
        'memory',
        '',
      ],
      { encoding: 'utf8' },
    );
    assert.equal(r.status, 0, r.stderr);
    assert.ok(r.stdout.split('\n').includes('supersede'), r.stdout);
  });
});

describe('help', () => {
  it('every command has an example', () => {
    const missing: string[] = [];
    const walk = (c: ReturnType<typeof buildProgram>) => {
      for (const s of c.commands) {
        if (!EXAMPLES[commandPath(s)]) missing.push(commandPath(s));
        walk(s);
      }
    };
    walk(buildProgram());
    assert.deepEqual(missing, []);
  });
  it('the example is printed at the end of --help', () => {
    const h = tempHome();
    after(h.cleanup);
    const r = tapedeck(['memory', 'add', '--help'], h.env);
    assert.equal(r.status, 0);
    assert.match(r.stdout, /\nExample:\n {2}\$ tapedeck memory add .+\n$/);
  });
});

describe('read commands on a fresh machine', () => {
  const READS = [
    ['stats'],
    ['threads'],
    ['search', 'redis', '--no-index'],
    ['doctor'],
    ['show', 'claude-code:nope'],
    ['memory', 'list'],
    ['memory', 'search', 'redis'],
    ['rules', 'list'],
    ['skills', 'list'],
    ['wiki', 'list'],
    ['thread', 'list'],
    ['wm', 'read'],
    ['context'],
    ['fs', 'ls', '/'],
    ['keys', 'list'],
  ];
  for (const args of READS)
    it(`${args.join(' ')} creates neither the home nor the database`, () => {
      const h = tempHome();
      after(h.cleanup);
      for (const json of [false, true]) {
        const r = tapedeck(json ? [...args, '--json'] : args, h.env);
        if (args[0] === 'show') assert.equal(r.status, 1, 'an unknown thread is still not found');
        else assert.equal(r.status, 0, r.stderr);
        if (json) JSON.parse(r.stdout);
        assert.ok(!existsSync(h.tapedeckHome), `${h.tapedeckHome} stays absent`);
      }
    });
  it('they say nothing is indexed yet, and the JSON has the usual shape', () => {
    const h = tempHome();
    after(h.cleanup);
    for (const args of [['stats'], ['threads'], ['search', 'redis', '--no-index']])
      assert.match(tapedeck(args, h.env).stdout, /Nothing indexed yet/);
    assert.match(tapedeck(['doctor'], h.env).stdout, /not created yet/);
    const stats = tapedeck(['stats', '--json'], h.env).json();
    assert.deepEqual([stats.threads, stats.steps, stats.db_bytes], [0, 0, 0]);
    assert.equal(stats.path, join(h.tapedeckHome, 'tapedeck.db'));
    assert.equal(tapedeck(['doctor', '--json'], h.env).json().database.exists, false);
    assert.deepEqual(tapedeck(['threads', '--json'], h.env).json(), { threads: [] });
    // a write still creates the store
    assert.equal(tapedeck(['memory', 'add', 'first memory'], h.env).status, 0);
    assert.ok(existsSync(join(h.tapedeckHome, 'tapedeck.db')));
  });
});
