import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeArgs, decodeArgValue, describeToolCall } from './tool-call.js';

describe('antigravity tool calls', () => {
  it('decodes each JSON-encoded value and keeps undecodable ones as written', () => {
    assert.equal(decodeArgValue('"src/db.py"'), 'src/db.py');
    assert.equal(decodeArgValue('5000'), 5000);
    assert.equal(decodeArgValue('true'), true);
    assert.equal(decodeArgValue('npm test'), 'npm test');
    assert.deepEqual(decodeArgs({ arguments: '{"TargetFile":"\\"a.ts\\""}' }), { TargetFile: 'a.ts' });
    assert.deepEqual(decodeArgs({ args: 'not json' }), {});
  });

  it('picks the target by key priority and lowercases the tool name', () => {
    assert.deepEqual(
      describeToolCall({
        name: 'Run_Command',
        args: { CommandLine: '"psql -c \\"select 1\\""', Cwd: '"/home/dev/acme-shop"' },
      }),
      {
        tool: 'run_command',
        target: 'psql -c "select 1"',
        text: 'run_command psql -c "select 1"',
        cwd: '/home/dev/acme-shop',
      },
    );
    assert.equal(
      describeToolCall({ name: 'write_to_file', args: { TargetFile: '"/a/b.ts"', CodeContent: '"x"' } })
        ?.target,
      '/a/b.ts',
    );
    assert.equal(
      describeToolCall({ name: 'default_api:view_file', args: { AbsolutePath: '"/a"' } })?.tool,
      'view_file',
    );
  });

  it('renders args on one line, capped, when there is no target', () => {
    const call = describeToolCall({
      name: 'search_web',
      args: { query: JSON.stringify(`postgres ${'tsvector '.repeat(40)}`) },
    });
    assert.ok(call);
    assert.equal(call.target, undefined);
    assert.ok(call.text.startsWith('search_web query=postgres tsvector tsvector'));
    assert.equal(call.text.length, 'search_web '.length + 200);
    assert.ok(call.text.endsWith('…'));
    assert.equal(
      describeToolCall({ name: 'list_permissions', args: { toolAction: '"Listing"' } })?.text,
      'list_permissions',
    );
    assert.equal(describeToolCall({ args: {} }), undefined);
  });
  it('keeps a search’s query with its folder and includes (args JSON-encoded per value or as one string)', () => {
    const perValue = describeToolCall({
      name: 'grep_search',
      args: {
        SearchPath: '"/home/mira/src/tramboard"',
        Query: '"X-RateLimit-Remaining"',
        MatchPerLine: 'true',
        Includes: '["*.go"]',
        toolAction: '"Searching"',
        toolSummary: '"Grep for X-RateLimit-Remaining"',
      },
    });
    assert.equal(perValue?.target, 'X-RateLimit-Remaining /home/mira/src/tramboard *.go');
    assert.equal(perValue?.text, 'grep_search X-RateLimit-Remaining /home/mira/src/tramboard *.go');
    const oneString = describeToolCall({
      name: 'find_by_name',
      arguments: JSON.stringify({ SearchDirectory: '"/w/internal"', Pattern: '"*_cache.go"' }),
    });
    assert.equal(oneString?.text, 'find_by_name *_cache.go /w/internal');
  });

  it('keeps a new file’s content under a write_to_file call (its result only counts the lines)', () => {
    const call = describeToolCall({
      name: 'write_to_file',
      args: {
        TargetFile: '"/home/mira/src/tramboard/internal/board/cache.go"',
        Overwrite: 'false',
        CodeContent: JSON.stringify(
          'package board\n\n// Departures change every 30 s upstream.\nconst cacheTTL = 30 * time.Second\n',
        ),
      },
    });
    assert.equal(
      call?.text,
      [
        'write_to_file /home/mira/src/tramboard/internal/board/cache.go',
        '+package board',
        '+',
        '+// Departures change every 30 s upstream.',
        '+const cacheTTL = 30 * time.Second',
      ].join('\n'),
    );
    // replace_file_content results carry the diff: the call stays one line.
    const replace = describeToolCall({
      name: 'replace_file_content',
      args: { TargetFile: '"/a.go"', TargetContent: '"x"', ReplacementContent: '"y"' },
    });
    assert.equal(replace?.text, 'replace_file_content /a.go');
  });
});
