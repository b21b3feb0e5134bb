import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createBacklogNote } from './backlog-note.js';

test('the backlog count is said once, again when it moved meaningfully, and when it is gone', () => {
  const note = createBacklogNote();
  assert.equal(note(0), '', 'nothing to say without a backlog');
  assert.match(note(400), /400 transcript files not read yet/);
  assert.equal(note(398), '');
  assert.equal(note(391), '');
  assert.match(note(290), /290 transcript files/, 'a quarter fewer is news');
  assert.equal(note(285), '');
  assert.match(note(0), /caught up/);
  assert.equal(note(0), '');
  assert.match(note(5), /5 transcript files/, 'a new backlog is said again');
  assert.equal(note(3), '', 'small moves of a small backlog are not');
});
