import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { ParseIssue } from '../../core/types.js';
import { codexAdapter } from './index.js';

const roots: string[] = [];
function tempHome(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tapedeck-codex-locate-'));
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

const A = 'rollout-2025-10-02T14-21-07-0199a8f2-3c1d-7b42-9e5f-2a6c8d4e1f37.jsonl';
const B = 'rollout-2025-10-03T09-12-44-0199ad40-77e2-7c19-8a3b-5d1e9f2c6a80.jsonl';
const OLD = 'rollout-2025-04-18-5d3f1a2b-8c4e-4f6a-9b7d-0e1c2a3b4c5d.json';

const sorted = (files: { path: string; mode: string }[]) =>
  files.map((f) => [f.path, f.mode]).sort((a, b) => a[0]!.localeCompare(b[0]!));

describe('codex locate', () => {
  it('finds dated JSONL rollouts and legacy .json rollouts, and nothing else', () => {
    const home = tempHome();
    const root = join(home, '.codex');
    const s = join(root, 'sessions');
    touch(join(s, '2025', '10', '02', A));
    touch(join(s, '2025', '10', '03', B));
    touch(join(s, OLD));
    touch(join(s, '2025', '04', '18', 'rollout-2025-04-18T09-00-00-aa.json'));
    // decoys
    touch(join(root, 'history.jsonl'));
    touch(join(root, 'archived_sessions', A));
    touch(join(root, 'log', 'codex-tui.log'));
    touch(join(s, '2025', '10', '02', 'notes.jsonl'));
    touch(join(s, '2025', '10', '02', `${A}.tmp`));
    touch(join(s, '2025', '10', 'rollout-misplaced.jsonl'));
    touch(join(s, 'tmp', '10', '02', 'rollout-x.jsonl'));
    touch(join(s, '2025', '10', '02', 'nested', 'rollout-deep.jsonl'));
    mkdirSync(join(s, '2025', '10', '02', 'rollout-dir.jsonl'), { recursive: true });

    const issues: ParseIssue[] = [];
    const found = codexAdapter.locate({ home, env: {} }, (i) => issues.push(i));
    assert.deepEqual(
      sorted(found),
      sorted([
        { path: join(s, '2025', '10', '02', A), mode: 'lines' },
        { path: join(s, '2025', '10', '03', B), mode: 'lines' },
        { path: join(s, OLD), mode: 'document' },
        { path: join(s, '2025', '04', '18', 'rollout-2025-04-18T09-00-00-aa.json'), mode: 'document' },
      ]),
    );
    assert.deepEqual(issues, []);
  });

  it('honours CODEX_HOME instead of ~/.codex', () => {
    const home = tempHome();
    touch(join(home, '.codex', 'sessions', '2025', '10', '02', A));
    const custom = join(tempHome(), 'codex-home');
    touch(join(custom, 'sessions', '2025', '10', '03', B));
    const found = codexAdapter.locate({ home, env: { CODEX_HOME: custom } }, () => {});
    assert.deepEqual(sorted(found), [[join(custom, 'sessions', '2025', '10', '03', B), 'lines']]);
  });

  it('returns [] without complaint when there is no Codex directory', () => {
    const issues: ParseIssue[] = [];
    assert.deepEqual(
      codexAdapter.locate({ home: tempHome(), env: {} }, (i) => issues.push(i)),
      [],
    );
    assert.deepEqual(issues, []);
  });

  it('reports a directory it cannot read and keeps going', () => {
    const home = tempHome();
    const s = join(home, '.codex', 'sessions');
    touch(join(s, '2025', '10', '02', A));
    // A symlink loop fails with ELOOP even for root, unlike chmod 000.
    symlinkSync(join(s, '2025', '11'), join(s, '2025', '11'));
    const issues: ParseIssue[] = [];
    const found = codexAdapter.locate({ home, env: {} }, (i) => issues.push(i));
    assert.deepEqual(sorted(found), [[join(s, '2025', '10', '02', A), 'lines']]);
    assert.equal(issues.length, 1);
    assert.equal(issues[0]?.path, join(s, '2025', '11'));
    assert.match(issues[0]!.message, /ELOOP/);
  });

  it('reports EACCES on an unreadable day directory', { skip: process.getuid?.() === 0 }, () => {
    const home = tempHome();
    const day = join(home, '.codex', 'sessions', '2025', '10', '02');
    touch(join(day, A));
    chmodSync(day, 0o000);
    try {
      const issues: ParseIssue[] = [];
      assert.deepEqual(
        codexAdapter.locate({ home, env: {} }, (i) => issues.push(i)),
        [],
      );
      assert.match(issues[0]?.message ?? '', /EACCES/);
    } finally {
      chmodSync(day, 0o755);
    }
  });
});
