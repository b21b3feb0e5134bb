import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, it } from 'node:test';
import { projectRootBeside } from './project-root.js';

const root = mkdtempSync(join(tmpdir(), 'tapedeck-gemini-'));
after(() => rmSync(root, { recursive: true, force: true }));

it('reads the project from .project_root beside chats/, for sessions and subagent sessions', () => {
  const project = join(root, '.gemini', 'tmp', 'shop');
  mkdirSync(join(project, 'chats', 'parent-1'), { recursive: true });
  writeFileSync(join(project, '.project_root'), '/home/dev/shop\n');
  assert.equal(projectRootBeside(join(project, 'chats', 'session-1.json')), '/home/dev/shop');
  assert.equal(projectRootBeside(join(project, 'chats', 'parent-1', 'sub.jsonl')), '/home/dev/shop');
});

it('ignores a missing, empty or relative .project_root', () => {
  const none = join(root, '.gemini', 'tmp', 'none');
  mkdirSync(join(none, 'chats'), { recursive: true });
  assert.equal(projectRootBeside(join(none, 'chats', 'session-1.json')), undefined);
  writeFileSync(join(none, '.project_root'), 'shop\n');
  assert.equal(projectRootBeside(join(none, 'chats', 'session-1.json')), undefined);
  assert.equal(projectRootBeside('/elsewhere/session-1.json'), undefined);
});
