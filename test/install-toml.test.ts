/** The TOML table editor on a realistic Codex config.toml, checked with a strict TOML reader. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hasTable, putTable, removeTable, renderTable } from '../src/core/toml-section.js';
import { parseToml } from './support/toml.js';

const MARK = '# tapedeck: managed';
const PATH = ['mcp_servers', 'tapedeck'];

const CONFIG = `# Codex configuration (~/.codex/config.toml)
model = "gpt-5-codex"
model_reasoning_effort = "high"
approval_policy = "on-request"
sandbox_mode = "workspace-write"
notify = ["bash", "-lc", "afplay /System/Library/Sounds/Glass.aiff"]

[features]
web_search_request = true

[sandbox_workspace_write]
network_access = false
writable_roots = [
  "/home/dev/.cache",
  # [not a header] inside an array
  "/tmp",
]

[mcp_servers.github]
command = "npx"
args = ["-y", "@modelcontextprotocol/server-github"]
env = { GITHUB_PERSONAL_ACCESS_TOKEN = "ghp_example" }

[mcp_servers.docs]
url = "https://docs.example.com/mcp"
bearer_token_env_var = "DOCS_TOKEN"

[profiles.fast]
model = "gpt-5-mini"
model_reasoning_effort = "low"
developer_instructions = """
[mcp_servers.tapedeck]
This line only looks like a header: it is inside a multi-line string.
"""

[tui]
notifications = ["agent-turn-complete", "approval-requested"]

[projects."/home/dev/acme-shop"]
trust_level = "trusted"
`;

const block = renderTable(
  PATH,
  {
    command: '/opt/node 22/bin/node',
    args: ['/Users/José Müller/tapedeck "dev"/bin/tapedeck.js', 'mcp'],
    env: { TAPEDECK_HOME: 'C:\\Users\\jm\\.tapedeck' },
  },
  MARK,
);

describe('TOML table editor', () => {
  it('appends the table and keeps every other byte', () => {
    const out = putTable(CONFIG, PATH, block, MARK);
    assert.ok(out.startsWith(CONFIG), 'the original text is untouched');
    const before = parseToml(CONFIG);
    const after = parseToml(out);
    const servers = after.mcp_servers as Record<string, unknown>;
    assert.deepEqual(servers.tapedeck, {
      command: '/opt/node 22/bin/node',
      args: ['/Users/José Müller/tapedeck "dev"/bin/tapedeck.js', 'mcp'],
      env: { TAPEDECK_HOME: 'C:\\Users\\jm\\.tapedeck' },
    });
    delete servers.tapedeck;
    assert.deepEqual(after, before);
  });

  it('is idempotent, and removing gives the original back byte for byte', () => {
    const once = putTable(CONFIG, PATH, block, MARK);
    assert.equal(putTable(once, PATH, block, MARK), once);
    assert.equal(removeTable(once, PATH, MARK), CONFIG);
    assert.equal(removeTable(CONFIG, PATH, MARK), CONFIG);
  });

  it('does not read a header inside a multi-line string or an array', () => {
    assert.equal(hasTable(CONFIG, PATH), false);
  });

  it('replaces an existing table in place, with its sub-tables, and leaves its neighbours', () => {
    const manual = CONFIG.replace(
      '[mcp_servers.docs]',
      '[mcp_servers.tapedeck]\ncommand = "tapedeck"\nargs = ["mcp"]\n\n[mcp_servers.tapedeck.env]\nTAPEDECK_SPACE = "work"\n\n[mcp_servers.docs]',
    );
    const out = putTable(manual, PATH, block, MARK);
    const parsed = parseToml(out);
    const servers = parsed.mcp_servers as Record<string, Record<string, unknown>>;
    assert.equal(servers.tapedeck.command, '/opt/node 22/bin/node');
    assert.deepEqual(servers.tapedeck.env, { TAPEDECK_HOME: 'C:\\Users\\jm\\.tapedeck' });
    assert.equal(servers.docs.url, 'https://docs.example.com/mcp');
    assert.ok(out.indexOf('[mcp_servers.tapedeck]') < out.indexOf('[mcp_servers.docs]'), 'kept its place');
    assert.equal(putTable(out, PATH, block, MARK), out);
    const removed = removeTable(out, PATH, MARK);
    assert.equal(hasTable(removed, PATH), false);
    assert.deepEqual(parseToml(removed).mcp_servers, { github: servers.github, docs: servers.docs });
  });

  it('refuses a table defined by dotted keys or an inline table, naming the line', () => {
    assert.throws(() => putTable('mcp_servers.tapedeck.command = "x"\n', PATH, block, MARK), /line 1/);
    assert.throws(
      () => putTable('a = 1\nmcp_servers = { tapedeck = { command = "x" } }\n', PATH, block, MARK),
      /line 2/,
    );
    assert.throws(
      () => putTable('[mcp_servers]\ntapedeck = { command = "x" }\n', PATH, block, MARK),
      /line 2/,
    );
    // other servers defined inline are fine
    const ok = putTable('[mcp_servers]\nother = { command = "x" }\n', PATH, block, MARK);
    assert.ok(parseToml(ok));
  });

  it('handles an empty file and one without a final newline', () => {
    const fresh = putTable('', PATH, block, MARK);
    assert.equal(fresh, block);
    assert.equal(removeTable(fresh, PATH, MARK), '');
    const bare = 'model = "o3"';
    const out = putTable(bare, PATH, block, MARK);
    assert.ok(parseToml(out));
    assert.equal(removeTable(out, PATH, MARK), `${bare}\n`);
  });
});
