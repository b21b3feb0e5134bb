/**
 * `tapedeck install|uninstall <agent>` against temporary homes and workspaces (paths with spaces and
 * non-ASCII letters) that already hold the user's own settings: the written files parse as the
 * host parses them, installing twice changes no byte, uninstalling gives back every file byte for
 * byte, a dry run writes nothing, and the installed hook commands run through the shell.
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
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { after, describe, it } from 'node:test';
import { runInstall } from '../src/interfaces/plugins/install.js';
import { BIN, tapedeck } from './support/cli.js';
import { parseToml } from './support/toml.js';

const AGENTS = ['antigravity', 'claude-code', 'codex', 'gemini-cli'] as const;
const SKILLS = [
  'tapedeck-memory-search',
  'tapedeck-memory-distill',
  'tapedeck-working-memory',
  'tapedeck-skill-load',
  'tapedeck-skill-manage',
  'tapedeck-skill-propose',
  'tapedeck-thread-save',
  'tapedeck-thread-handoff',
  'tapedeck-fs-explore',
  'tapedeck-status',
  'tapedeck-approvals',
];

const CLAUDE_SETTINGS = `${JSON.stringify(
  {
    $schema: 'https://json.schemastore.org/claude-code-settings.json',
    permissions: { allow: ['Bash(npm run test:*)'], deny: ['Read(./.env)'] },
    hooks: {
      SessionStart: [{ matcher: 'startup', hooks: [{ type: 'command', command: 'echo "welcome back"' }] }],
      PostToolUse: [
        {
          matcher: 'Edit|Write',
          hooks: [{ type: 'command', command: 'npx prettier --write "$FILE"', timeout: 30 }],
        },
      ],
    },
    model: 'opus',
  },
  null,
  2,
)}\n`;
const CLAUDE_JSON = `${JSON.stringify(
  {
    numStartups: 42,
    installMethod: 'native',
    mcpServers: {
      github: { type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: {} },
    },
    projects: { '/home/dev/acme-shop': { allowedTools: [], hasTrustDialogAccepted: true } },
  },
  null,
  2,
)}\n`;
const CODEX_TOML = `model = "gpt-5-codex"
approval_policy = "on-request"

[mcp_servers.github]
command = "npx"
args = ["-y", "@modelcontextprotocol/server-github"]

[projects."/home/dev/acme-shop"]
trust_level = "trusted"
`;
const GEMINI_SETTINGS = `{
    "theme": "GitHub",
    "mcpServers": {
        "playwright": {
            "command": "npx",
            "args": [
                "@playwright/mcp@latest"
            ]
        }
    },
    "hooks": {
        "BeforeTool": [
            {
                "matcher": "run_shell_command",
                "hooks": [
                    {
                        "name": "audit",
                        "type": "command",
                        "command": "~/bin/audit.sh"
                    }
                ]
            }
        ]
    }
}
`;
const AG_HOOKS = `${JSON.stringify({ lint: { PostToolUse: [{ matcher: 'write_to_file', hooks: [{ type: 'command', command: 'npm run lint', timeout: 60 }] }] } }, null, 2)}\n`;

/** Every file (relative path → content) and every folder under `dir`. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) {
        out[`${relative(dir, p)}/`] = '';
        walk(p);
      } else out[relative(dir, p)] = readFileSync(p, 'utf8');
    }
  };
  walk(dir);
  return out;
}

function world() {
  const root = mkdtempSync(join(tmpdir(), 'tapedeck install ü-'));
  const home = join(root, 'Jürgen Müller');
  const workspace = join(root, 'my app é');
  const tapedeckHome = join(root, 'tapedeck data');
  const write = (p: string, text: string) => {
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, text);
  };
  write(join(home, '.claude', 'settings.json'), CLAUDE_SETTINGS);
  write(join(home, '.claude.json'), CLAUDE_JSON);
  write(join(home, '.codex', 'config.toml'), CODEX_TOML);
  write(join(home, '.codex', 'AGENTS.md'), '# Global instructions\n\n- Be terse.\n');
  write(join(home, '.gemini', 'settings.json'), GEMINI_SETTINGS);
  write(join(home, '.gemini', 'GEMINI.md'), '# Context\n\nI work on acme-shop.\n');
  write(join(home, '.gemini', 'config', 'hooks.json'), AG_HOOKS);
  write(join(workspace, 'README.md'), '# my app\n');
  write(join(workspace, 'AGENTS.md'), '# Agents\n\nRun `npm test` before committing.\n');
  const env = { HOME: home, PATH: process.env.PATH ?? '' };
  const install = (
    agent: string,
    more: { mode?: 'install' | 'uninstall'; workspace?: boolean; dryRun?: boolean } = {},
  ) =>
    runInstall({
      agent,
      mode: more.mode ?? 'install',
      workspace: more.workspace ? workspace : undefined,
      dryRun: more.dryRun,
      env,
      cwd: workspace,
      tapedeckHome,
    });
  return {
    root,
    home,
    workspace,
    tapedeckHome,
    env,
    install,
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

const json = (p: string) => JSON.parse(readFileSync(p, 'utf8'));

function frontMatter(text: string): Record<string, string> {
  const m = /^---\n([\s\S]*?)\n---\n/.exec(text);
  assert.ok(m, 'front matter');
  return Object.fromEntries(
    m[1].split('\n').map((l) => {
      const [k, ...v] = l.split(': ');
      const raw = v.join(': ');
      return [k, raw.startsWith('"') ? JSON.parse(raw) : raw];
    }),
  );
}

function checkSkills(dir: string) {
  assert.deepEqual(readdirSync(dir).sort(), [...SKILLS].sort());
  for (const name of SKILLS) {
    const fm = frontMatter(readFileSync(join(dir, name, 'SKILL.md'), 'utf8'));
    assert.equal(fm.name, name);
    assert.match(fm.description, /^Use (when|at|after|to) /, `${name}: the description says when to use it`);
  }
}

describe('tapedeck install / uninstall', () => {
  const w = world();
  after(w.cleanup);
  const original = snapshot(w.root);

  it('antigravity: a plugin folder the host accepts, and the hook group where it fires', () => {
    w.install('antigravity');
    const plugin = join(w.home, '.gemini', 'config', 'plugins', 'tapedeck');
    const manifest = json(join(plugin, 'plugin.json'));
    for (const k of ['name', 'version', 'description', 'author', 'license', 'keywords'])
      assert.ok(manifest[k], k);
    const hooks = json(join(plugin, 'hooks.json'));
    assert.deepEqual(Object.keys(hooks), ['tapedeck'], 'top-level keys are group names, no "hooks" wrapper');
    const g = hooks.tapedeck;
    assert.deepEqual(Object.keys(g).sort(), ['PreInvocation', 'PreToolUse', 'Stop']);
    assert.equal(g.PreInvocation[0].type, 'command');
    assert.equal(typeof g.PreInvocation[0].timeout, 'number');
    assert.equal(g.PreToolUse[0].matcher, '^mcp_tapedeck_');
    assert.match(g.PreToolUse[0].hooks[0].command, /hook antigravity PreToolUse/);
    const top = json(join(w.home, '.gemini', 'config', 'hooks.json'));
    assert.deepEqual(Object.keys(top), ['lint', 'tapedeck'], "the user's group is kept");
    assert.deepEqual(top.tapedeck, g);
    const mcp = json(join(plugin, 'mcp_config.json')).mcpServers.tapedeck;
    assert.equal(mcp.command, process.execPath);
    assert.deepEqual(mcp.args, [BIN, 'mcp']);
    assert.equal(mcp.env.TAPEDECK_HOME, w.tapedeckHome);
    assert.ok(frontMatter(readFileSync(join(plugin, 'rules', 'tapedeck.md'), 'utf8')).description);
    checkSkills(join(plugin, 'skills'));
  });

  it('claude-code: hooks merged into settings.json, the MCP server into ~/.claude.json, skills', () => {
    w.install('claude-code');
    const s = json(join(w.home, '.claude', 'settings.json'));
    assert.deepEqual(s.permissions, JSON.parse(CLAUDE_SETTINGS).permissions);
    assert.equal(s.hooks.SessionStart.length, 2, "the user's SessionStart hook is kept");
    assert.equal(s.hooks.SessionStart[0].hooks[0].command, 'echo "welcome back"');
    for (const e of ['SessionStart', 'PreCompact', 'Stop', 'SessionEnd'])
      assert.ok(
        s.hooks[e].some((g: { hooks: { command: string }[] }) =>
          g.hooks[0].command.includes(`hook claude-code ${e}`),
        ),
        e,
      );
    assert.deepEqual(s.hooks.PostToolUse, JSON.parse(CLAUDE_SETTINGS).hooks.PostToolUse);
    const c = json(join(w.home, '.claude.json'));
    assert.equal(c.numStartups, 42);
    assert.deepEqual(Object.keys(c.mcpServers), ['github', 'tapedeck']);
    assert.equal(c.mcpServers.tapedeck.type, 'stdio');
    checkSkills(join(w.home, '.claude', 'skills'));
  });

  it('codex: [mcp_servers.tapedeck] in config.toml (valid TOML), an AGENTS.md section, hooks.json', () => {
    w.install('codex');
    const text = readFileSync(join(w.home, '.codex', 'config.toml'), 'utf8');
    assert.ok(text.startsWith(CODEX_TOML), 'the rest of the file is untouched');
    const t = parseToml(text) as {
      mcp_servers: Record<string, { command: string; args: string[] }>;
      model: string;
    };
    assert.equal(t.model, 'gpt-5-codex');
    assert.deepEqual(Object.keys(t.mcp_servers), ['github', 'tapedeck']);
    assert.equal(t.mcp_servers.tapedeck.command, process.execPath);
    assert.equal(t.mcp_servers.tapedeck.args[1], 'mcp');
    const agents = readFileSync(join(w.home, '.codex', 'AGENTS.md'), 'utf8');
    assert.ok(agents.startsWith('# Global instructions\n\n- Be terse.\n\n<!-- tapedeck:begin'));
    assert.match(agents, /`recall`/);
    const hooks = json(join(w.home, '.codex', 'hooks.json'));
    assert.match(hooks.hooks.SessionStart[0].hooks[0].command, /hook codex SessionStart/);
    assert.match(hooks.hooks.Stop[0].hooks[0].command, /hook codex Stop/);
  });

  it('gemini-cli: mcpServers and hooks in settings.json (indentation kept), a GEMINI.md section', () => {
    w.install('gemini-cli');
    const text = readFileSync(join(w.home, '.gemini', 'settings.json'), 'utf8');
    assert.match(text, /^\{\n {4}"theme"/, 'four-space indentation kept');
    const s = JSON.parse(text);
    assert.deepEqual(Object.keys(s.mcpServers), ['playwright', 'tapedeck']);
    assert.equal(s.hooks.BeforeTool[0].hooks[0].name, 'audit');
    for (const e of ['SessionStart', 'PreCompress', 'SessionEnd']) {
      const h = s.hooks[e][0].hooks[0];
      assert.match(h.command, new RegExp(`hook gemini-cli ${e}`));
      assert.equal(h.timeout, 10_000, 'milliseconds');
      assert.match(h.name, /^tapedeck-/);
    }
    assert.match(
      readFileSync(join(w.home, '.gemini', 'GEMINI.md'), 'utf8'),
      /tapedeck:begin[\s\S]*tapedeck:end/,
    );
  });

  it('installing again changes no byte', () => {
    const once = snapshot(w.root);
    for (const a of AGENTS) {
      const r = w.install(a);
      assert.deepEqual(
        r.changes.filter((c) => c.kind !== 'unchanged').map((c) => c.path),
        [],
        a,
      );
    }
    assert.deepEqual(snapshot(w.root), once);
  });

  it('a dry run prints the plan and writes nothing', () => {
    const before = snapshot(w.root);
    for (const a of AGENTS) {
      const r = w.install(a, { mode: 'uninstall', dryRun: true });
      assert.ok(r.changes.some((c) => c.kind === 'delete' || c.kind === 'update'));
      assert.ok(r.changes.every((c) => c.kind === 'unchanged' || c.diff.length > 0));
    }
    const cli = tapedeck(['install', 'codex', '--workspace', w.workspace, '--dry-run'], {
      ...w.env,
      TAPEDECK_HOME: w.tapedeckHome,
    });
    assert.equal(cli.status, 0, cli.stderr);
    assert.match(cli.stdout, /dry run, nothing written/);
    assert.match(cli.stdout, /create +.*\.codex\/config\.toml/);
    assert.match(cli.stdout, /\+ \[mcp_servers\.tapedeck\]/);
    assert.deepEqual(snapshot(w.root), before);
  });

  it('uninstalling gives back every file byte for byte, and leaves no Tapedeck file or folder', () => {
    for (const a of AGENTS) w.install(a, { mode: 'uninstall' });
    assert.deepEqual(snapshot(w.root), original);
  });

  it('workspace scope: installs in the project, and uninstall leaves the project as it was', () => {
    const before = snapshot(w.workspace);
    for (const a of AGENTS) w.install(a, { workspace: true });
    const ws = w.workspace;
    assert.deepEqual(Object.keys(json(join(ws, '.agents', 'hooks.json'))), ['tapedeck']);
    assert.equal(readFileSync(join(ws, '.agents', 'plugins', 'tapedeck', '.gitignore'), 'utf8'), '*\n');
    assert.ok(json(join(ws, '.claude', 'settings.local.json')).hooks.SessionStart);
    assert.ok(!existsSync(join(ws, '.mcp.json')), "the team's .mcp.json is not touched");
    assert.ok(
      json(join(w.home, '.claude.json')).projects[ws].mcpServers.tapedeck,
      "Claude Code's local scope",
    );
    assert.ok(parseToml(readFileSync(join(ws, '.codex', 'config.toml'), 'utf8')).mcp_servers);
    assert.match(
      readFileSync(join(ws, 'AGENTS.md'), 'utf8'),
      /^# Agents\n\nRun `npm test` before committing.\n\n<!-- tapedeck:begin/,
    );
    assert.ok(json(join(ws, '.gemini', 'settings.json')).mcpServers.tapedeck);
    assert.ok(existsSync(join(ws, 'GEMINI.md')));
    for (const a of AGENTS) w.install(a, { workspace: true, mode: 'uninstall' });
    assert.deepEqual(snapshot(w.workspace), before);
  });

  it('refuses a settings file it cannot parse, and writes nothing', () => {
    const p = join(w.home, '.gemini', 'settings.json');
    writeFileSync(p, '{\n  "theme": "GitHub"\n  "vimMode": true\n}\n');
    const before = snapshot(w.root);
    const r = tapedeck(['install', 'gemini-cli'], { ...w.env, TAPEDECK_HOME: w.tapedeckHome });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /settings\.json is not valid JSON \(CommaExpected at line 3, column 3\)/);
    assert.deepEqual(snapshot(w.root), before);
    writeFileSync(p, GEMINI_SETTINGS);
  });
});

describe('installed hook commands', () => {
  const root = mkdtempSync(join(tmpdir(), 'tapedeck cmd ü-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  it('run through the shell from paths with spaces, quotes and non-ASCII letters', () => {
    // Node and Tapedeck reached through folders with awkward names
    const nodeDir = join(root, "Nöde's bin");
    const appDir = join(root, 'Hippö app', 'bin');
    mkdirSync(nodeDir, { recursive: true });
    mkdirSync(appDir, { recursive: true });
    symlinkSync(process.execPath, join(nodeDir, 'node'));
    symlinkSync(BIN, join(appDir, 'tapedeck.js'));
    const home = join(root, 'home ü');
    const tapedeckHome = join(root, 'data "x" é');
    mkdirSync(home, { recursive: true });
    const env = { HOME: home, PATH: process.env.PATH ?? '' };
    const r = runInstall({
      agent: 'claude-code',
      mode: 'install',
      env,
      cwd: home,
      tapedeckHome,
      node: join(nodeDir, 'node'),
      bin: join(appDir, 'tapedeck.js'),
    });
    assert.ok(r.changes.some((c) => c.kind === 'create'));
    const settings = json(join(home, '.claude', 'settings.json'));
    const start = settings.hooks.SessionStart[0].hooks[0].command as string;
    const stop = settings.hooks.Stop[0].hooks[0].command as string;
    assert.ok(start.includes("Nöde'\\''s bin"), start);
    const payload = JSON.stringify({
      session_id: 'x1',
      transcript_path: join(home, 'none.jsonl'),
      cwd: home,
      hook_event_name: 'SessionStart',
    });
    for (const cmd of [start, stop]) {
      const out = spawnSync('sh', ['-c', cmd], {
        input: payload,
        env: { ...env, TAPEDECK_HOOK_NO_WORKER: '1' },
        encoding: 'utf8',
      });
      assert.equal(out.status, 0, out.stderr);
      JSON.parse(out.stdout);
    }
    // the hook used the data folder named in the command
    assert.ok(statSync(join(tapedeckHome, 'hooks.log')).isFile());
    assert.match(readFileSync(join(tapedeckHome, 'hooks.log'), 'utf8'), /claude-code:x1: queued/);
  });

  it('an install from another Node or folder replaces the old commands instead of adding new ones', () => {
    const home = join(root, 'home two');
    mkdirSync(home, { recursive: true });
    const env = { HOME: home, PATH: process.env.PATH ?? '' };
    const base = { mode: 'install' as const, env, cwd: home, bin: BIN };
    for (const agent of ['claude-code', 'gemini-cli', 'codex', 'antigravity'])
      for (const node of ['/old/node/bin/node', process.execPath]) runInstall({ ...base, agent, node });
    const settings = json(join(home, '.claude', 'settings.json'));
    for (const e of ['SessionStart', 'PreCompact', 'Stop', 'SessionEnd']) {
      assert.equal(settings.hooks[e].length, 1, e);
      assert.ok(!settings.hooks[e][0].hooks[0].command.includes('/old/node'), e);
    }
    const gemini = json(join(home, '.gemini', 'settings.json'));
    assert.equal(gemini.hooks.SessionStart.length, 1);
    assert.equal(gemini.mcpServers.tapedeck.command, process.execPath);
    const toml = readFileSync(join(home, '.codex', 'config.toml'), 'utf8');
    assert.equal(toml.match(/\[mcp_servers\.tapedeck\]/g)?.length, 1);
    assert.ok(!toml.includes('/old/node'));
    assert.ok(!readFileSync(join(home, '.gemini', 'config', 'hooks.json'), 'utf8').includes('/old/node'));
  });
});
