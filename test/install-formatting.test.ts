/**
 * Install edits only the keys Tapedeck owns and keeps the rest of a settings file's text as it was:
 * compact, hand-formatted, commented (with trailing commas), tab-indented and CRLF files come back
 * byte for byte from uninstall. Workspace installs keep this machine's paths out of what a team
 * commits: nothing `git status` offers to commit names them.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { after, describe, it } from 'node:test';
import * as jsonc from 'jsonc-parser';
import { runInstall } from '../src/interfaces/plugins/install.js';
import { BIN, tapedeck } from './support/cli.js';

const STYLES: Record<string, { claude: string; gemini: string; claudeJson: string }> = {
  compact: {
    claude:
      '{"model":"opus","hooks":{"SessionStart":[{"matcher":"startup","hooks":[{"type":"command","command":"echo hi"}]}]}}',
    gemini: '{"theme":"GitHub","mcpServers":{"playwright":{"command":"npx"}}}\n',
    claudeJson: '{"numStartups":3,"projects":{}}',
  },
  'hand-formatted': {
    claude:
      '{\n    "model":   "opus",\n    "permissions": { "allow": ["Bash(ls)"] },\n    "hooks": {\n        "Stop": [ { "hooks": [ { "type": "command", "command": "say done" } ] } ]\n    }\n}\n',
    gemini: '{ "theme" : "GitHub",\n  "vimMode" : true }\n',
    claudeJson:
      '{\n "numStartups": 3,\n "mcpServers": {"github": {"command": "npx", "args": ["-y", "gh"]}}\n}\n',
  },
  commented: {
    claude:
      '// my Claude settings\n{\n  /* the model */ "model": "opus", // the best one\n  "env": {\n    "DEBUG": "1", // trailing comma next\n  },\n}\n',
    gemini:
      '{\n  // theme first\n  "theme": "GitHub",\n  "hooks": {\n    "BeforeTool": [\n      { "matcher": "run_shell_command", "hooks": [{ "name": "audit", "type": "command", "command": "~/audit.sh" }] }, // audit\n    ],\n  },\n}\n',
    claudeJson: '{\n  "numStartups": 3, // counted by Claude\n  "projects": {\n  }\n}\n',
  },
  'tabs and CRLF': {
    claude:
      '{\r\n\t"model": "opus",\r\n\t"hooks": {\r\n\t\t"Stop": [{ "hooks": [{ "type": "command", "command": "say done" }] }]\r\n\t}\r\n}\r\n',
    gemini: '{\r\n\t"theme": "GitHub"\r\n}',
    claudeJson: '{\r\n\t"numStartups": 3\r\n}\r\n',
  },
};

function world() {
  const root = mkdtempSync(join(tmpdir(), 'tapedeck format-'));
  const home = join(root, 'home');
  const write = (p: string, text: string) => {
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, text);
  };
  return { root, home, write, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

const parse = (text: string) => {
  const errors: jsonc.ParseError[] = [];
  const v = jsonc.parse(text, errors, { allowTrailingComma: true });
  assert.deepEqual(errors, [], 'the file still parses');
  return v;
};

describe('settings files keep their own text', () => {
  for (const [style, files] of Object.entries(STYLES)) {
    it(`${style}: install adds only Tapedeck's keys; uninstall gives the files back byte for byte`, () => {
      const w = world();
      after(w.cleanup);
      const paths = {
        claude: join(w.home, '.claude', 'settings.json'),
        claudeJson: join(w.home, '.claude.json'),
        gemini: join(w.home, '.gemini', 'settings.json'),
      };
      for (const k of ['claude', 'claudeJson', 'gemini'] as const) w.write(paths[k], files[k]);
      const run = (agent: string, mode: 'install' | 'uninstall') =>
        runInstall({ agent, mode, env: { HOME: w.home }, cwd: w.root });
      run('claude-code', 'install');
      run('gemini-cli', 'install');

      const claude = readFileSync(paths.claude, 'utf8');
      const s = parse(claude);
      assert.equal(s.model, 'opus', "the user's keys are kept");
      assert.ok(s.hooks.SessionEnd[0].hooks[0].command.includes('hook claude-code SessionEnd'));
      const gemini = readFileSync(paths.gemini, 'utf8');
      assert.equal(parse(gemini).theme, 'GitHub');
      assert.ok(parse(gemini).mcpServers.tapedeck.command);
      assert.equal(parse(readFileSync(paths.claudeJson, 'utf8')).numStartups, 3);
      assert.ok(parse(readFileSync(paths.claudeJson, 'utf8')).mcpServers.tapedeck);
      // every comment and the text before Tapedeck's first key are still there
      for (const [k, text] of [
        ['claude', claude],
        ['gemini', gemini],
      ] as const)
        for (const comment of files[k].match(/\/\/[^\n]*|\/\*.*?\*\//g) ?? [])
          assert.ok(text.includes(comment), `${k} keeps ${comment}`);
      if (style === 'compact') assert.ok(!claude.includes('\n'), 'a compact file stays compact');
      if (style === 'tabs and CRLF') {
        assert.ok(!claude.replace(/\r\n/g, '').includes('\n'), 'CRLF line ends throughout');
        assert.match(claude, /\r\n\t\t"SessionEnd": \[\r\n\t\t\t\{/, 'tab indentation');
      }

      assert.equal(
        run('claude-code', 'install').changes.filter((c) => c.kind !== 'unchanged').length,
        0,
        'installing again changes nothing',
      );
      run('claude-code', 'uninstall');
      run('gemini-cli', 'uninstall');
      assert.equal(readFileSync(paths.claude, 'utf8'), files.claude);
      assert.equal(readFileSync(paths.claudeJson, 'utf8'), files.claudeJson);
      assert.equal(readFileSync(paths.gemini, 'utf8'), files.gemini);
    });
  }
});

/** Every file under `dir` (relative path → content), `.git` left out. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.name === '.git') continue;
      if (e.isDirectory()) walk(p);
      else out[relative(dir, p)] = readFileSync(p, 'utf8');
    }
  };
  walk(dir);
  return out;
}

describe('workspace installs in a git repository', () => {
  it("nothing git offers to commit holds this machine's paths; uninstall restores .git/info/exclude", () => {
    const w = world();
    after(w.cleanup);
    const ws = join(w.root, 'repo');
    const tapedeckHome = join(w.root, 'tapedeck data');
    w.write(join(ws, 'README.md'), '# app\n');
    w.write(join(ws, '.mcp.json'), '{"mcpServers":{"db":{"command":"npx","args":["db-mcp"]}}}\n');
    const git = (...args: string[]) => {
      const r = spawnSync('git', args, { cwd: ws, encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      return r.stdout;
    };
    git('init', '-q');
    const exclude = join(ws, '.git', 'info', 'exclude');
    const excludeBefore = existsSync(exclude) ? readFileSync(exclude, 'utf8') : null;
    const before = snapshot(ws);
    const env = { HOME: w.home, PATH: process.env.PATH ?? '', TAPEDECK_HOME: tapedeckHome };

    const claude = tapedeck(['install', 'claude-code', '--workspace', ws], env);
    assert.equal(claude.status, 0, claude.stderr);
    assert.match(
      claude.stdout,
      /Kept out of git through \.git\/info\/exclude.*\.claude\/settings\.local\.json/,
    );
    assert.match(claude.stdout, /registered for this project only/);
    for (const agent of ['antigravity', 'codex', 'gemini-cli'])
      assert.equal(tapedeck(['install', agent, '--workspace', ws], env).status, 0);

    const offered = git('status', '--porcelain', '--untracked-files=all')
      .split('\n')
      .filter(Boolean)
      .map((l) => l.slice(3));
    assert.ok(
      offered.includes('AGENTS.md') && offered.includes('GEMINI.md'),
      'shared instructions stay visible',
    );
    for (const f of offered) {
      const text = readFileSync(join(ws, f), 'utf8');
      for (const machine of [process.execPath, BIN, tapedeckHome, w.home])
        assert.ok(!text.includes(machine), `${f} names ${machine}`);
    }
    assert.ok(!offered.includes('.claude/settings.local.json'));
    assert.equal(readFileSync(join(ws, '.mcp.json'), 'utf8'), before['.mcp.json'], "the team's .mcp.json");
    const local = JSON.parse(readFileSync(join(w.home, '.claude.json'), 'utf8'));
    assert.equal(local.projects[ws].mcpServers.tapedeck.type, 'stdio');

    // status tells the workspace installs from the global ones, although they share files
    // (~/.claude.json, .git/info/exclude)
    const status = tapedeck(['status', '--json'], env, { cwd: ws }).json();
    assert.deepEqual(
      status.integrations.map(
        (i: { agent: string; scope: string; state: string }) => `${i.agent} ${i.scope} ${i.state}`,
      ),
      [
        'antigravity workspace installed',
        'claude-code workspace installed',
        'codex workspace installed',
        'gemini-cli workspace installed',
      ],
    );

    for (const agent of ['antigravity', 'claude-code', 'codex', 'gemini-cli'])
      assert.equal(tapedeck(['uninstall', agent, '--workspace', ws], env).status, 0);
    assert.deepEqual(snapshot(ws), before);
    assert.equal(existsSync(exclude) ? readFileSync(exclude, 'utf8') : null, excludeBefore);
    assert.ok(!existsSync(join(w.home, '.claude.json')), 'the local MCP entry is gone with the file it made');
  });
});
