import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { ParseIssue } from '../../core/types.js';
import { antigravityAdapter } from './index.js';

const home = mkdtempSync(join(tmpdir(), 'tapedeck-antigravity-'));
after(() => rmSync(home, { recursive: true, force: true }));

function touch(rel: string, text = '{}\n'): string {
  const p = join(home, rel);
  mkdirSync(dirname(p), { recursive: true });
  writeFileSync(p, text);
  return p;
}

const logs = (root: string, id: string) => `.gemini/${root}/brain/${id}/.system_generated/logs`;

// Desktop: one conversation with both transcripts (the full one wins), one compacted only.
const bothFull = touch(`${logs('antigravity', 'aaaa-1111')}/transcript_full.jsonl`);
touch(`${logs('antigravity', 'aaaa-1111')}/transcript.jsonl`);
const compactedOnly = touch(`${logs('antigravity', 'bbbb-2222')}/transcript.jsonl`);
// IDE and CLI flavours.
const ide = touch(`${logs('antigravity-ide', 'cccc-3333')}/transcript_full.jsonl`);
const cli = touch(`${logs('antigravity-cli', 'dddd-4444')}/transcript.jsonl`);
// Decoys that must not be picked up.
mkdirSync(join(home, '.gemini/antigravity/brain/tempmediaStorage'), { recursive: true });
touch('.gemini/antigravity/brain/eeee-5555/task.md', '- [ ] add GIN index\n');
touch('.gemini/antigravity/brain/eeee-5555/implementation_plan.md', '# Plan\n');
touch(`${logs('antigravity', 'ffff-6666')}/transcript.jsonl.bak`);
touch('.gemini/antigravity/brain/gggg-7777/.system_generated/tasks/task-15.log', 'npm test\n');
touch('.gemini/antigravity/brain/stray-file.jsonl');
touch('.gemini/antigravity-cli/conversations/dddd-4444.db', '');
touch('.gemini/antigravity-cli/history.jsonl');
touch('.gemini/tmp/acme-shop/chats/session-2026-01-01T10-00-abcd1234.jsonl');
touch('.gemini/antigravity/brain/hhhh-8888/.system_generated/logs/transcript_full.jsonl/oops.txt');

describe('antigravity locate', () => {
  it('returns one transcript per conversation across the three roots, the full one first', () => {
    const issues: ParseIssue[] = [];
    const found = antigravityAdapter.locate({ home, env: {} }, (i) => issues.push(i));
    assert.deepEqual(found.map((f) => f.path).sort(), [bothFull, compactedOnly, ide, cli].sort());
    assert.ok(found.every((f) => f.mode === 'lines'));
    assert.deepEqual(issues, []);
  });

  it('returns nothing for a home without Antigravity', () => {
    const empty = mkdtempSync(join(tmpdir(), 'tapedeck-antigravity-empty-'));
    try {
      assert.deepEqual(
        antigravityAdapter.locate({ home: empty, env: {} }, () => assert.fail('no issue expected')),
        [],
      );
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('reports a brain directory it cannot read and keeps going', () => {
    const odd = mkdtempSync(join(tmpdir(), 'tapedeck-antigravity-loop-'));
    try {
      mkdirSync(join(odd, '.gemini/antigravity'), { recursive: true });
      // A symlink loop exists but can never be listed (ELOOP), like an unreadable directory.
      symlinkSync('brain', join(odd, '.gemini/antigravity/brain'));
      const ok = join(odd, `${logs('antigravity-ide', 'ok-1')}/transcript.jsonl`);
      mkdirSync(dirname(ok), { recursive: true });
      writeFileSync(ok, '');
      const issues: ParseIssue[] = [];
      const found = antigravityAdapter.locate({ home: odd, env: {} }, (i) => issues.push(i));
      assert.deepEqual(
        found.map((f) => f.path),
        [ok],
      );
      assert.equal(issues.length, 1);
      assert.equal(issues[0]?.path, join(odd, '.gemini/antigravity/brain'));
      assert.match(issues[0]?.message ?? '', /^cannot read directory: ELOOP/);
    } finally {
      rmSync(odd, { recursive: true, force: true });
    }
  });
});
