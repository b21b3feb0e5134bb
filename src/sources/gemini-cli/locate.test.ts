import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { ParseIssue } from '../../core/types.js';
import { geminiCliAdapter } from './index.js';

const home = mkdtempSync(join(tmpdir(), 'tapedeck-gemini-'));
after(() => rmSync(home, { recursive: true, force: true }));

function touch(base: string, rel: string, text = '{}\n'): string {
  const p = join(base, rel);
  mkdirSync(dirname(p), { recursive: true });
  writeFileSync(p, text);
  return p;
}

const HASH = '3f1d5e9a4c2b7e8f0a6d1c3b5e7f9a2c4d6e8f0a1b3c5d7e9f1a3b5c7d9e1f3a';
const hashChats = `.gemini/tmp/${HASH}/chats`;
const slugChats = '.gemini/tmp/acme-shop/chats';

// Older hash-named project folder with a legacy document session.
const legacy = touch(home, `${hashChats}/session-2025-10-21T08-42-5f0c2a91.json`);
// Newer slug-named folder: a log, a document that was migrated to .jsonl, and a subagent.
const log = touch(home, `${slugChats}/session-2026-02-14T16-20-8c1d7e42.jsonl`);
const migrated = touch(home, `${slugChats}/session-2025-12-01T09-00-aa11bb22.jsonl`);
touch(home, `${slugChats}/session-2025-12-01T09-00-aa11bb22.json`);
const subagent = touch(
  home,
  `${slugChats}/8c1d7e42-3a9b-4f60-b2d8-6e1f0c4a9b73/codebase_investigator-1.jsonl`,
);
touch(home, '.gemini/tmp/acme-shop/.project_root', '/home/dev/acme-shop\n');
// Decoys that must not be picked up.
touch(home, `.gemini/tmp/${HASH}/logs.json`, '[]');
touch(home, '.gemini/tmp/acme-shop/logs.json', '[]');
touch(home, '.gemini/tmp/acme-shop/checkpoints/checkpoint-healthz.json');
touch(home, '.gemini/tmp/acme-shop/8c1d7e42-3a9b-4f60-b2d8-6e1f0c4a9b73/plans/plan.md', '# plan\n');
touch(home, `${slugChats}/notes.json`);
touch(home, `${slugChats}/session-2026-01-01T00-00-deadbeef.json.bak`);
touch(home, `${slugChats}/8c1d7e42-3a9b-4f60-b2d8-6e1f0c4a9b73/notes.txt`);
touch(home, '.gemini/tmp/bin/rg', '');
touch(home, '.gemini/tmp/stray.jsonl');
touch(home, '.gemini/antigravity/brain/x/.system_generated/logs/transcript.jsonl');
touch(home, '.gemini/settings.json');
mkdirSync(join(home, `${slugChats}/session-dir.jsonl`), { recursive: true });

describe('gemini-cli locate', () => {
  it('finds logs, legacy documents and subagent logs; skips a .json migrated to .jsonl', () => {
    const issues: ParseIssue[] = [];
    const found = geminiCliAdapter.locate({ home, env: {} }, (i) => issues.push(i));
    const byPath = (a: { path: string }, b: { path: string }) => a.path.localeCompare(b.path);
    assert.deepEqual(
      [...found].sort(byPath),
      [
        { path: legacy, mode: 'document' },
        { path: log, mode: 'lines' },
        { path: migrated, mode: 'lines' },
        { path: subagent, mode: 'lines' },
      ].sort(byPath),
    );
    assert.deepEqual(issues, []);
  });

  it('honours GEMINI_CLI_HOME over the home directory', () => {
    const other = mkdtempSync(join(tmpdir(), 'tapedeck-gemini-home-'));
    try {
      const only = touch(other, '.gemini/tmp/ci-runner/chats/session-2026-03-01T12-00-0badf00d.jsonl');
      const found = geminiCliAdapter.locate({ home, env: { GEMINI_CLI_HOME: other } }, () =>
        assert.fail('no issue'),
      );
      assert.deepEqual(found, [{ path: only, mode: 'lines' }]);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('returns nothing without a Gemini folder and reports an unreadable chats folder', () => {
    const empty = mkdtempSync(join(tmpdir(), 'tapedeck-gemini-empty-'));
    try {
      assert.deepEqual(
        geminiCliAdapter.locate({ home: empty, env: {} }, () => assert.fail('no issue')),
        [],
      );
      mkdirSync(join(empty, '.gemini/tmp/loop'), { recursive: true });
      // A symlink loop exists but can never be listed (ELOOP), like an unreadable directory.
      symlinkSync('chats', join(empty, '.gemini/tmp/loop/chats'));
      const ok = touch(empty, '.gemini/tmp/shop/chats/session-2026-03-02T08-00-12345678.jsonl');
      const issues: ParseIssue[] = [];
      const found = geminiCliAdapter.locate({ home: empty, env: {} }, (i) => issues.push(i));
      assert.deepEqual(found, [{ path: ok, mode: 'lines' }]);
      assert.equal(issues.length, 1);
      assert.equal(issues[0]?.path, join(empty, '.gemini/tmp/loop/chats'));
      assert.match(issues[0]?.message ?? '', /^cannot read directory: ELOOP/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
