import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parseLinesFile } from '../test-helpers.js';
import { antigravityAdapter } from './index.js';

const HOME = fileURLToPath(new URL('../../../examples/home', import.meta.url));

describe('antigravity example sessions (examples/home)', () => {
  const files = antigravityAdapter.locate({ home: HOME, env: {} }, (i) => assert.fail(i.message));
  const parsed = files.map((f) => ({ file: f, r: parseLinesFile(antigravityAdapter, f.path) }));
  const all = (id: string) => {
    const hit = parsed.find((p) => p.r.thread.sessionId === id);
    assert.ok(hit, `session ${id} located`);
    return hit.r;
  };

  it('are found at the real default locations and parse without issues', () => {
    assert.equal(files.length, 2);
    for (const { file, r } of parsed) {
      assert.deepEqual(r.issues, [], file.path);
      assert.ok(r.steps.length >= 15 && r.steps.length <= 60, `${file.path}: ${r.steps.length} steps`);
      assert.equal(r.thread.project, '/home/dev/acme-shop');
      assert.ok(r.steps.some((s) => s.kind === 'tool_call') && r.steps.some((s) => s.kind === 'tool_result'));
    }
  });

  it('product search: PostgreSQL FTS chosen over Elasticsearch, with reasons, and a backgrounded test run', () => {
    const r = all('2f8c6d41-9a3e-4b7f-8c21-5e0d9f4a7b16');
    const text = r.steps.map((s) => s.text).join('\n');
    assert.match(
      text,
      /use PostgreSQL full-text search \(a `tsvector` column with a GIN index\), not Elasticsearch/,
    );
    assert.match(text, /Rejected alternative: Elasticsearch/);
    assert.match(text, /Ops burden/);
    const background = r.steps.find(
      (s) => s.kind === 'tool_result' && s.target === 'npm run test:integration -- products.search',
    );
    assert.ok(background?.text.includes('Tests  4 passed (4)'));
  });

  it('CORS: the checkout preflight fix is findable by the browser error and the cause', () => {
    const r = all('a7d3e915-04c2-4e6b-b8f0-3c91d2e6f5a8');
    assert.match(r.thread.title ?? '', /^Checkout is broken on staging/);
    const text = r.steps.map((s) => s.text).join('\n');
    assert.match(text, /Response to preflight request doesn't pass access control check/);
    assert.match(
      text,
      /mounted \(with `requireCustomer`\) on line 15, before `app\.use\(cors\(corsOptions\)\)`/,
    );
    assert.match(text, /Browsers reject `Access-Control-Allow-Origin: \*` on credentialed requests/);
  });
});
