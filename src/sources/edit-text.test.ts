import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  boundedDiff,
  contentLines,
  editText,
  isBinaryText,
  MAX_EDIT_CHARS,
  replacementLines,
  searchTarget,
} from './edit-text.js';

describe('edit text', () => {
  it('keeps only the changed region of a search-and-replace, not the anchoring context', () => {
    const before = 'export const retry = {\n  attempts: 3,\n  delayMs: 500,\n};\n';
    const after = 'export const retry = {\n  attempts: 3,\n  delayMs: 2000, // upstream asks for 2 s\n};\n';
    assert.deepEqual(replacementLines(before, after), [
      '-  delayMs: 500,',
      '+  delayMs: 2000, // upstream asks for 2 s',
    ]);
    // Pure insertion and pure deletion; CRLF files compare line by line like LF ones.
    assert.deepEqual(replacementLines('a\r\nc\r\n', 'a\r\nb\r\nc\r\n'), ['+b']);
    assert.deepEqual(replacementLines('a\nb\nc', 'a\nc'), ['-b']);
    assert.deepEqual(replacementLines('', 'x'), ['+x']);
    assert.deepEqual(replacementLines('same', 'same'), []);
  });

  it('renders a new file as + lines and leaves binary and minified content out with a marker', () => {
    assert.deepEqual(contentLines('one\ntwo\n'), ['+one', '+two']);
    assert.deepEqual(contentLines(''), []);
    assert.equal(isBinaryText('PNG\u0000\u0001\u0002'), true);
    assert.equal(isBinaryText('tab\there, ünïcode ✓'), false);
    assert.deepEqual(contentLines('GIF89a\u0000\u0000\u00ff'), ['[binary content left out]']);
    const minified = `+${'function(a){return a.b&&a.c?a.d:a.e};'.repeat(40)}`;
    assert.equal(boundedDiff([minified]), `+[minified line of ${minified.length} characters left out]`);
    // A long line of prose is not minified: it is kept.
    const prose = `+${'The cache keeps the old price until the TTL expires. '.repeat(12)}`;
    assert.equal(boundedDiff([prose]), prose.trimEnd());
  });

  it('caps a huge diff at a line boundary and says how many lines were left out', () => {
    const lines = Array.from({ length: 2_000 }, (_, i) => `+const value${i} = ${i};`);
    const body = boundedDiff(lines);
    assert.ok(body.length <= MAX_EDIT_CHARS + 60, `${body.length}`);
    const last = body.split('\n').at(-1) ?? '';
    const kept = body.split('\n').length - 1;
    assert.equal(last, `[… ${2_000 - kept} more changed lines not indexed]`);
    assert.ok(body.startsWith('+const value0 = 0;\n+const value1 = 1;'));
    // One enormous line still yields something, cut.
    assert.ok(boundedDiff([`+${'word '.repeat(2_000)}`]).length <= MAX_EDIT_CHARS + 1);
  });

  it('puts the diff under the call line, or leaves the call line alone when nothing changed', () => {
    assert.equal(editText('replace /a.ts', ['-x', '+y']), 'replace /a.ts\n-x\n+y');
    assert.equal(editText('replace /a.ts', []), 'replace /a.ts');
  });

  it('renders a search as pattern, folder and file filters', () => {
    assert.equal(searchTarget('retryDelay', '/w/src', ['*.ts', '*.go']), 'retryDelay /w/src *.ts *.go');
    assert.equal(searchTarget('TODO', undefined, undefined), 'TODO');
    assert.equal(searchTarget('', '/w'), undefined);
    assert.equal(searchTarget(undefined, '/w'), undefined);
  });
});
