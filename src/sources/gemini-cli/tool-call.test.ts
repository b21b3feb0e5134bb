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
  it('keeps what an edit changed in the call text: replace, write_file, and a failed replace', () => {
    const ok = (output: string) => [
      { functionResponse: { id: 'c1', name: 'replace', response: { output } } },
    ];
    const [replace, replaced] = toolCallDrafts(
      {
        id: 'replace-1760000000000-1',
        name: 'replace',
        args: {
          file_path: '/home/mira/src/pondcam/pondcam/stream.py',
          old_string: 'def reconnect(self):\n    delay = 1.0\n    for attempt in range(5):',
          new_string:
            'def reconnect(self):\n    delay = 0.5  # the camera drops RTSP after 30 s idle\n    for attempt in range(8):',
          expected_replacements: 1,
        },
        result: ok('Successfully modified file: /home/mira/src/pondcam/pondcam/stream.py (1 replacements).'),
        status: 'success',
        resultDisplay: { fileDiff: '@@ -1 +1 @@\n-    delay = 1.0', fileName: 'stream.py' },
      },
      '2026-03-02T09:00:00.000Z',
    );
    assert.equal(
      replace?.text,
      [
        'replace /home/mira/src/pondcam/pondcam/stream.py',
        '-    delay = 1.0',
        '-    for attempt in range(5):',
        '+    delay = 0.5  # the camera drops RTSP after 30 s idle',
        '+    for attempt in range(8):',
      ].join('\n'),
    );
    assert.equal(replace?.target, '/home/mira/src/pondcam/pondcam/stream.py');
    assert.equal(
      replaced?.text,
      'Successfully modified file: /home/mira/src/pondcam/pondcam/stream.py (1 replacements).',
    );

    const [write] = toolCallDrafts(
      {
        name: 'write_file',
        args: { file_path: '/w/retention.toml', content: '[retention]\nkeep_days = 14\n' },
        status: 'success',
        result: ok('Successfully created and wrote to new file: /w/retention.toml.'),
      },
      undefined,
    );
    assert.equal(write?.text, 'write_file /w/retention.toml\n+[retention]\n+keep_days = 14');

    // A cancelled edit still says what it would have changed: people search for those too.
    const [cancelled, outcome] = toolCallDrafts(
      {
        name: 'replace',
        args: { file_path: '/w/a.py', old_string: 'x = 1', new_string: 'x = 2' },
        status: 'cancelled',
      },
      undefined,
    );
    assert.deepEqual(
      [cancelled?.text, outcome?.text],
      ['replace /w/a.py\n-x = 1\n+x = 2', '[error] cancelled'],
    );
  });

  it('keeps a search call’s pattern with its folder and file filter', () => {
    const [call, result] = toolCallDrafts(
      {
        name: 'search_file_content',
        args: { pattern: 'RECONNECT_DELAY', dir_path: '/home/mira/src/pondcam', include: '*.py' },
        status: 'success',
        result: [
          { functionResponse: { response: { output: 'Found 2 matches for pattern "RECONNECT_DELAY"' } } },
        ],
      },
      undefined,
    );
    assert.equal(call?.text, 'search_file_content RECONNECT_DELAY /home/mira/src/pondcam *.py');
    assert.equal(result?.target, 'RECONNECT_DELAY /home/mira/src/pondcam *.py');
    // Older builds: `path`; a list_directory `path` with no pattern stays a plain folder.
    assert.equal(toolTarget({ pattern: 'retry', path: 'src' }), 'retry src');
    assert.equal(toolTarget({ path: '/w/src', ignore: ['*.pyc'] }), '/w/src');
  });
});
