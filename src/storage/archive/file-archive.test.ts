import assert from 'node:assert/strict';
import {
  appendFileSync,
  closeSync,
  fstatSync,
  mkdtempSync,
  openSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { createFileArchive, PIECE_BYTES } from './file-archive.js';

function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'tapedeck-archive-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const archive = createFileArchive(join(dir, 'archive'));
  const capture = (path: string) => {
    const fd = openSync(path, 'r');
    try {
      archive.capture(path, 'claude-code', fd, fstatSync(fd).size);
    } finally {
      closeSync(fd);
    }
  };
  const blobs = () =>
    readdirSync(join(dir, 'archive', 'blobs'), { recursive: true }).filter((f) => String(f).endsWith('.gz'));
  return { dir, archive, capture, blobs };
}

const bytes = (n: number, seed: number) =>
  Buffer.from(Array.from({ length: n }, (_, i) => (i * 31 + seed * 7 + (i >> 9)) % 251));

test('growth appends, a rewrite starts a generation, the old one stays readable', () => {
  const { dir, archive, capture, blobs } = setup();
  const f = join(dir, 'a.jsonl');
  const first = bytes(PIECE_BYTES * 2 + 100, 1);
  writeFileSync(f, first);
  capture(f);
  assert.equal(blobs().length, 2);
  assert.ok(archive.read(f).equals(first));
  const more = bytes(PIECE_BYTES, 2);
  appendFileSync(f, more);
  capture(f);
  assert.equal(blobs().length, 3, 'only the new full piece is written');
  assert.ok(archive.read(f).equals(Buffer.concat([first, more])));
  capture(f); // unchanged: nothing to do
  assert.equal(archive.entry(f)?.generations.length, 1);

  const other = bytes(500, 3);
  writeFileSync(f, other);
  capture(f);
  assert.equal(archive.entry(f)?.generations.length, 2);
  assert.ok(archive.read(f).equals(other));
  assert.ok(archive.read(f, 0).equals(Buffer.concat([first, more])));
  assert.throws(() => archive.read(f, 5), /no archive generation 5/);
});

test('the same bytes are stored once; removing one copy keeps the shared pieces', () => {
  const { dir, archive, capture, blobs } = setup();
  const data = bytes(PIECE_BYTES * 3, 4);
  const a = join(dir, 'a.jsonl');
  const b = join(dir, 'b.jsonl');
  writeFileSync(a, data);
  writeFileSync(b, data);
  capture(a);
  capture(b);
  assert.equal(blobs().length, 3);
  assert.equal(archive.stats().files, 2);
  assert.equal(archive.stats().originalBytes, data.length * 2);
  assert.equal(archive.remove(a), true);
  assert.ok(archive.read(b).equals(data), 'b still whole');
  assert.equal(archive.remove(b), true);
  assert.equal(blobs().length, 0);
  assert.equal(archive.remove(b), false);
});

test('a damaged piece is refused, never restored silently', () => {
  const { dir, archive, capture, blobs } = setup();
  const f = join(dir, 'a.jsonl');
  writeFileSync(f, bytes(PIECE_BYTES + 10, 5));
  capture(f);
  writeFileSync(join(dir, 'archive', 'blobs', String(blobs()[0])), 'not gzip');
  assert.throws(() => archive.read(f), /piece 0 of .* is missing or damaged/);
});

test('a whole-file rewrite that did not shrink replaces its generation (Gemini CLI documents)', () => {
  const { dir, archive, capture } = setup();
  const f = join(dir, 's.json');
  for (let i = 1; i <= 5; i++) {
    writeFileSync(
      f,
      JSON.stringify({ lastUpdated: `2026-12-01T10:0${i}:00Z`, messages: Array(i * 50).fill('m') }),
    );
    capture(f);
  }
  assert.equal(archive.entry(f)?.generations.length, 1);
  assert.match(archive.read(f).toString(), /10:05:00Z/);
});
