import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { ParseIssue } from '../../core/types.js';
import { claudeCodeAdapter } from './index.js';

const roots: string[] = [];
function tempHome(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tapedeck-claude-locate-'));
  roots.push(dir);
  return dir;
}
function touch(path: string, text = '{}\n'): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}
after(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

const S1 = '0b1c2d3e-4f50-4a1b-8c2d-3e4f5a6b7c8d';
const S2 = '9d8c7b6a-5f4e-4d3c-9b2a-1f0e9d8c7b6a';

/** A home with the real layout plus decoys that are not transcripts. */
function buildHome(root: string): void {
  const shop = join(root, 'projects', '-home-dev-acme-shop');
  touch(join(shop, `${S1}.jsonl`));
  touch(join(shop, `${S2}.jsonl`));
  touch(join(shop, 'agent-7b2e41d0.jsonl'));
  touch(join(shop, S1, 'subagents', 'agent-a3f9c1e2.jsonl'));
  touch(join(root, 'projects', '-home-dev-blog', `${S2}.jsonl`));
  // decoys
  touch(join(shop, S1, 'tool-results', 'toolu_01.jsonl'));
  touch(join(shop, S1, 'subagents', 'agent-a3f9c1e2.meta.json'));
  touch(join(shop, 'sessions-index.json'));
  touch(join(shop, `${S1}.jsonl.bak`));
  touch(join(root, 'projects', 'stray.jsonl'));
  touch(join(root, 'history.jsonl'));
  touch(join(root, 'todos', `${S1}-agent-${S1}.json`));
  mkdirSync(join(shop, 'empty-folder.jsonl'), { recursive: true });
}

const sorted = (files: { path: string; mode: string }[]) =>
  files.map((f) => [f.path, f.mode]).sort((a, b) => a[0]!.localeCompare(b[0]!));

describe('claude-code locate', () => {
  it('finds sessions, subagent files and legacy agent files under ~/.claude/projects, and nothing else', () => {
    const home = tempHome();
    const root = join(home, '.claude');
    buildHome(root);
    const issues: ParseIssue[] = [];
    const found = claudeCodeAdapter.locate({ home, env: {} }, (i) => issues.push(i));
    const shop = join(root, 'projects', '-home-dev-acme-shop');
    assert.deepEqual(
      sorted(found),
      sorted([
        { path: join(root, 'projects', '-home-dev-blog', `${S2}.jsonl`), mode: 'lines' },
        { path: join(shop, S1, 'subagents', 'agent-a3f9c1e2.jsonl'), mode: 'lines' },
        { path: join(shop, `${S1}.jsonl`), mode: 'lines' },
        { path: join(shop, `${S2}.jsonl`), mode: 'lines' },
        { path: join(shop, 'agent-7b2e41d0.jsonl'), mode: 'lines' },
      ]),
    );
    assert.deepEqual(issues, []);
  });

  it('honours CLAUDE_CONFIG_DIR instead of ~/.claude', () => {
    const home = tempHome();
    touch(join(home, '.claude', 'projects', '-home-dev-acme-shop', `${S1}.jsonl`));
    const custom = join(tempHome(), 'claude-config');
    touch(join(custom, 'projects', '-srv-shop', `${S2}.jsonl`));
    const found = claudeCodeAdapter.locate({ home, env: { CLAUDE_CONFIG_DIR: custom } }, () => {});
    assert.deepEqual(sorted(found), [[join(custom, 'projects', '-srv-shop', `${S2}.jsonl`), 'lines']]);
  });

  it('returns [] without complaint when there is no Claude Code directory', () => {
    const issues: ParseIssue[] = [];
    assert.deepEqual(
      claudeCodeAdapter.locate({ home: tempHome(), env: {} }, (i) => issues.push(i)),
      [],
    );
    assert.deepEqual(issues, []);
  });

  it('reports a directory it cannot read and keeps going', () => {
    const home = tempHome();
    const projects = join(home, '.claude', 'projects');
    touch(join(projects, '-home-dev-acme-shop', `${S1}.jsonl`));
    // A symlink loop fails with ELOOP even for root, unlike chmod 000.
    symlinkSync(join(projects, '-loop'), join(projects, '-loop'));
    const issues: ParseIssue[] = [];
    const found = claudeCodeAdapter.locate({ home, env: {} }, (i) => issues.push(i));
    assert.deepEqual(sorted(found), [[join(projects, '-home-dev-acme-shop', `${S1}.jsonl`), 'lines']]);
    assert.equal(issues.length, 1);
    assert.equal(issues[0]?.path, join(projects, '-loop'));
    assert.match(issues[0]!.message, /ELOOP/);
  });

  it('reports EACCES on an unreadable project directory', { skip: process.getuid?.() === 0 }, () => {
    const home = tempHome();
    const locked = join(home, '.claude', 'projects', '-locked');
    touch(join(locked, `${S1}.jsonl`));
    chmodSync(locked, 0o000);
    try {
      const issues: ParseIssue[] = [];
      assert.deepEqual(
        claudeCodeAdapter.locate({ home, env: {} }, (i) => issues.push(i)),
        [],
      );
      assert.match(issues[0]?.message ?? '', /EACCES/);
    } finally {
      chmodSync(locked, 0o755);
    }
  });
});
