import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { createCollector } from '../test-helpers.js';
import { GeminiLineParser, parseGeminiDocument } from './parse.js';
import { projectHashOf, rootWithHash } from './project-hash.js';

const ROOT = '/home/mira/src/pondcam';
const HASH = createHash('sha256').update(ROOT).digest('hex');
/** A legacy hash-named folder: no `.project_root` beside `chats/`. */
const PATH = `/nowhere/.gemini/tmp/${HASH}/chats/session-2026-01-10T08-00-1a2b3c4d.json`;

const read = (file: string) => ({
  id: 'read_file-1',
  name: 'read_file',
  args: { absolute_path: file },
  status: 'success',
  result: [{ functionResponse: { id: 'read_file-1', name: 'read_file', response: { output: 'x' } } }],
});

function doc(calls: Record<string, unknown>[], projectHash: string | undefined = HASH): string {
  return JSON.stringify(
    {
      sessionId: '1a2b3c4d-0000-4000-8000-000000000001',
      ...(projectHash ? { projectHash } : {}),
      startTime: '2026-01-10T08:00:00.000Z',
      messages: [
        { id: 'u1', type: 'user', content: 'Why does motion detection fire on rain?' },
        { id: 'g1', type: 'gemini', content: 'Reading the detector.', toolCalls: calls },
      ],
    },
    null,
    2,
  );
}

function projectOf(text: string, path = PATH): string | undefined {
  const c = createCollector();
  parseGeminiDocument(path, text, c.sink);
  return c.result().thread.project;
}

describe('gemini-cli project from the project hash', () => {
  it('recovers the root from a tool call’s path whose ancestor hashes to projectHash', () => {
    assert.equal(projectOf(doc([read('/etc/hosts'), read(`${ROOT}/pondcam/motion.py`)])), ROOT);
    // The folder name is the hash when the document has no projectHash field.
    assert.equal(projectOf(doc([read(`${ROOT}/README.md`)], undefined)), ROOT);
  });

  it('leaves the project unknown when no path lies inside the hashed root', () => {
    assert.equal(projectOf(doc([read('/home/mira/src/other/a.py'), read('relative/b.py')])), undefined);
    assert.equal(
      projectOf(doc([read(`${ROOT}/a.py`)], 'f'.repeat(64)), `/x/tmp/slug/chats/s.json`),
      undefined,
    );
  });

  it('works across resumes of a .jsonl log (the hash is kept in the saved state)', () => {
    const path = `/nowhere/.gemini/tmp/${HASH}/chats/session-2026-01-10T08-00-1a2b3c4d.jsonl`;
    const c = createCollector();
    const first = new GeminiLineParser(path);
    first.line(
      JSON.stringify({ sessionId: 's-1', projectHash: HASH, startTime: '2026-01-10T08:00:00.000Z' }),
      1,
      c.sink,
    );
    first.line(JSON.stringify({ id: 'u1', type: 'user', content: 'look at motion.py' }), 2, c.sink);
    const resumed = new GeminiLineParser(path, JSON.parse(JSON.stringify(first.state())));
    resumed.line(
      JSON.stringify({ id: 'g1', type: 'gemini', content: '', toolCalls: [read(`${ROOT}/motion.py`)] }),
      3,
      c.sink,
    );
    assert.equal(c.result().thread.project, ROOT);
  });

  it('hashes each folder once and reads the hash only from a 64-hex folder name or field', () => {
    const tried = new Set<string>();
    assert.equal(rootWithHash(`${ROOT}/a/b.py, ${ROOT}/a/c.py`, HASH, tried), ROOT);
    assert.equal(rootWithHash('npm test', HASH, tried), undefined);
    assert.equal(projectHashOf({ projectHash: 'nope' }, '/g/tmp/shop/chats/s.json'), undefined);
  });
});
