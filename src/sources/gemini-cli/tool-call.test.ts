import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toolCallDrafts, toolResultText, toolTarget } from './tool-call.js';

describe('gemini-cli tool calls', () => {
  it('picks the target: file paths, then the shell command, then directories and patterns', () => {
    assert.equal(toolTarget({ file_path: '/a.ts', content: 'x' }), '/a.ts');
    assert.equal(toolTarget({ command: 'npm ci', directory: 'api' }), 'npm ci');
    assert.equal(toolTarget({ command: 'npm ci', dir_path: '/w/api' }), 'npm ci');
    assert.equal(toolTarget({ pattern: '*.sql', dir_path: '/w/db' }), '*.sql /w/db');
    assert.equal(toolTarget({ pattern: 'TODO' }), 'TODO');
    assert.equal(toolTarget({ paths: ['a.ts', 7, 'b.ts'] }), 'a.ts, b.ts');
    assert.equal(toolTarget({ query: 'x' }), undefined);
  });

  it('reads every result shape the CLI has written', () => {
    assert.deepEqual(toolResultText({ result: 'plain' }), { text: 'plain', failed: false });
    assert.deepEqual(toolResultText({ result: { functionResponse: { response: { output: 'one part' } } } }), {
      text: 'one part',
      failed: false,
    });
    assert.deepEqual(toolResultText({ result: [{ functionResponse: { response: { error: 'denied' } } }] }), {
      text: 'denied',
      failed: true,
    });
    assert.deepEqual(toolResultText({ result: [{ functionResponse: { response: { llmContent: 'x' } } }] }), {
      text: '{"llmContent":"x"}',
      failed: false,
    });
    assert.deepEqual(toolResultText({ result: [], resultDisplay: 'Found 3 matches' }), {
      text: 'Found 3 matches',
      failed: false,
    });
    assert.deepEqual(
      toolResultText({ result: null, resultDisplay: { todos: [{ description: 'migrate' }] } }),
      {
        text: '{"todos":[{"description":"migrate"}]}',
        failed: false,
      },
    );
    assert.deepEqual(toolResultText({}), { text: '', failed: false });
  });

  it('emits only the call while it is still running, and caps an args rendering', () => {
    const drafts = toolCallDrafts(
      {
        name: 'google_web_search',
        args: { query: `knex vs ${'plain sql '.repeat(40)}` },
        status: 'executing',
      },
      '2026-02-01T10:00:00.000Z',
    );
    assert.equal(drafts.length, 1);
    assert.equal(drafts[0]?.kind, 'tool_call');
    assert.equal(drafts[0]?.target, undefined);
    assert.equal(drafts[0]?.text.length, 'google_web_search '.length + 200);
    assert.deepEqual(toolCallDrafts({ args: {} }, undefined), []);
    assert.deepEqual(
      toolCallDrafts({ name: 'Save_Memory', args: {}, status: 'error' }, undefined).map((d) => [
        d.tool,
        d.text,
      ]),
      [
        ['save_memory', 'save_memory'],
        ['save_memory', '[error] error'],
      ],
    );
  });
});
