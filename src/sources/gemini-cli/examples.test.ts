import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parseDocumentFile, parseLinesFile } from '../test-helpers.js';
import { geminiCliAdapter } from './index.js';

const HOME = fileURLToPath(new URL('../../../examples/home', import.meta.url));

describe('gemini-cli example sessions (examples/home)', () => {
  const files = geminiCliAdapter.locate({ home: HOME, env: {} }, (i) => assert.fail(i.message));
  const parsed = files.map((f) => ({
    file: f,
    r:
      f.mode === 'lines'
        ? parseLinesFile(geminiCliAdapter, f.path)
        : parseDocumentFile(geminiCliAdapter, f.path),
  }));
  const session = (id: string) => {
    const hit = parsed.find((p) => p.r.thread.sessionId === id);
    assert.ok(hit, `session ${id} located`);
    return hit;
  };

  it('are found in both formats and parse without issues', () => {
    assert.deepEqual(files.map((f) => f.mode).sort(), ['document', 'lines']);
    for (const { file, r } of parsed) {
      assert.deepEqual(r.issues, [], file.path);
      assert.ok(r.steps.length >= 15 && r.steps.length <= 60, `${file.path}: ${r.steps.length} steps`);
    }
  });

  it('Docker: node:20-slim multi-stage chosen, alpine rejected because of better-sqlite3 on musl', () => {
    const { file, r } = session('7d3a9c2e-5b14-4f0a-8e63-91c2d4b7a058');
    assert.equal(file.mode, 'document');
    // The document names no workspace; the project comes from .project_root beside chats/.
    assert.equal(r.thread.project, '/home/dev/acme-shop');
    const text = r.steps.map((s) => s.text).join('\n');
    assert.match(text, /Decision: `node:20-slim`, multi-stage/);
    assert.match(
      text,
      /No prebuilt binaries found \(target=20\.18\.1 runtime=node arch=x64 libc=musl platform=linux\)/,
    );
    assert.match(text, /setup-node reads it via `node-version-file`/);
    assert.ok(
      r.steps.some((s) => s.role === 'system' && s.text.startsWith('[error] [API Error: got status: 503')),
    );
  });

  it('migrations: the rewound knex attempt is gone, numbered plain SQL files remain with the reasons', () => {
    const { file, r } = session('4e8b1f60-2c7d-4a95-b318-0f6e9d2c7a41');
    assert.equal(file.mode, 'lines');
    assert.equal(r.thread.project, '/home/dev/acme-shop');
    assert.match(r.thread.title ?? '', /^Set up schema migrations for the API, but no knex/);
    assert.ok(
      !r.steps.some((s) => s.target === 'npm install knex --workspace api' || s.text.includes('knexfile')),
    );
    const text = r.steps.map((s) => s.text).join('\n');
    assert.match(text, /Decision: numbered plain SQL migrations, no knex/);
    assert.match(text, /Rejected: knex migrations/);
  });
});
