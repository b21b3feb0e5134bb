import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCollector } from '../test-helpers.js';
import { messageStartLines } from './message-lines.js';
import { parseGeminiDocument } from './parse.js';

describe('gemini-cli message start lines', () => {
  it('finds each message’s `{` in a pretty-printed document, whatever its key order', () => {
    const doc = {
      sessionId: 's-1',
      // a decoy: a string holding braces, brackets and the word "messages" before the array
      note: '{"messages": [1, 2]} \\" [',
      messages: [
        { type: 'user', id: 'm-1', content: 'Move the retry to 2 s' },
        {
          id: 'm-2',
          type: 'gemini',
          content: [{ text: 'Done {ok}' }],
          toolCalls: [{ args: { a: [1, { b: 2 }] } }],
        },
        42,
        { id: 'm-3', type: 'user', content: 'thanks' },
      ],
    };
    const text = `${JSON.stringify(doc, null, 2)}\n`;
    const lines = text.split('\n');
    const starts = messageStartLines(text);
    assert.equal(starts?.length, 4);
    for (const [i, l] of (starts ?? []).entries()) {
      const first = lines[l - 1]!.trim();
      assert.ok(
        i === 2 ? first.startsWith('42') : first === '{',
        `message ${i} starts at line ${l}: ${first}`,
      );
    }
    assert.ok(lines[starts![0]!]!.includes('"type": "user"'), 'the id need not be the first key');
  });

  it('is line 1 for every message of a one-line document, and undefined without a messages array', () => {
    assert.deepEqual(messageStartLines('{"sessionId":"s","messages":[{"id":"a"},{"id":"b"}]}'), [1, 1]);
    assert.deepEqual(messageStartLines('{"messages":[]}'), []);
    assert.equal(messageStartLines('{"sessionId":"s","other":{"messages":[{}]}}'), undefined);
  });

  it('gives the parsed steps the message’s first line, not its "id" line', () => {
    const text = `${JSON.stringify(
      {
        sessionId: '5f0c2a91-0000-4000-8000-000000000001',
        projectHash: 'ab',
        messages: [
          { id: 'u1', timestamp: '2026-03-02T09:00:00.000Z', type: 'user', content: 'why 2 s?' },
          {
            timestamp: '2026-03-02T09:00:05.000Z',
            id: 'g1',
            type: 'gemini',
            content: 'The camera drops idle RTSP.',
          },
        ],
      },
      null,
      2,
    )}\n`;
    const c = createCollector();
    parseGeminiDocument('/t/session.json', text, c.sink);
    const steps = c.result().steps;
    const lines = text.split('\n');
    assert.deepEqual(
      steps.map((s) => [s.kind, lines[s.source.line - 1]]),
      [
        ['prompt', '    {'],
        ['response', '    {'],
      ],
    );
  });
});
