import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createCollector, parseLinesFile } from '../test-helpers.js';
import { antigravityAdapter } from './index.js';
import { activeDocument, foldPath, toPath, workspaceFromListing } from './workspace.js';

const NO_CWD = fileURLToPath(
  new URL(
    './fixtures/brain/9c4e2b71-3d5a-4f86-b0e2-7a1d6c8f5e39/.system_generated/logs/transcript_full.jsonl',
    import.meta.url,
  ),
);

describe('antigravity: where a session worked', () => {
  it('a session that ran no command gets the folder of the files it named', () => {
    const r = parseLinesFile(antigravityAdapter, NO_CWD);
    assert.deepEqual(r.issues, []);
    // web/src/invoice/… and shared/money/… → the repository folder that holds both.
    assert.equal(r.thread.project, '/home/dev/ledger');
  });

  it('a stated workspace list wins over a command Cwd, which wins over file paths', () => {
    const c = createCollector();
    const p = antigravityAdapter.createLineParser(
      '/h/.gemini/antigravity/brain/c2/.system_generated/logs/transcript.jsonl',
    );
    const lines = [
      {
        step_index: 0,
        source: 'USER_EXPLICIT',
        type: 'USER_INPUT',
        content:
          '<USER_REQUEST>\nFix it\n</USER_REQUEST>\n<ADDITIONAL_METADATA>\nActive Document: /home/dev/shop/api/src/a.ts (LANGUAGE_TYPESCRIPT)\n</ADDITIONAL_METADATA>',
      },
      {
        step_index: 1,
        source: 'MODEL',
        type: 'PLANNER_RESPONSE',
        content: 'Running the tests.',
        tool_calls: [
          { name: 'run_command', args: { CommandLine: '"npm test"', Cwd: '"/home/dev/shop/api"' } },
        ],
      },
      {
        step_index: 3,
        source: 'SYSTEM',
        type: 'EPHEMERAL_MESSAGE',
        content:
          'The user has 1 active workspaces, each defined by a URI and a CorpusName. Multiple URIs potentially map to the same CorpusName. The mapping is shown as follows in the format [URI] -> [CorpusName]:\nfile:///home/dev/shop -> home/dev/shop\n',
      },
    ];
    const projects: (string | undefined)[] = [];
    for (const [i, l] of lines.entries()) {
      p.line(JSON.stringify(l), i + 1, c.sink);
      projects.push(c.result().thread.project);
    }
    assert.deepEqual(projects, ['/home/dev/shop/api/src', '/home/dev/shop/api', '/home/dev/shop']);
  });

  it('reads workspace URIs, Active Document lines and folds paths', () => {
    assert.equal(
      workspaceFromListing(
        'The user has 2 active workspaces, each defined by a URI and a CorpusName. …:\ne:\\mcp -> e:/mcp\nfile:///home/dev/x%20y -> home/dev/x y\n',
      ),
      'e:\\mcp',
    );
    assert.equal(toPath('file:///home/dev/x%20y/'), '/home/dev/x y');
    assert.equal(toPath('file:///c%3A/work/shop'), 'c:/work/shop');
    assert.equal(toPath('src/a.ts'), undefined);
    assert.equal(
      activeDocument('Active Document: /home/dev/shop/a.ts (LANGUAGE_TYPESCRIPT)\n'),
      '/home/dev/shop/a.ts',
    );
    assert.equal(foldPath(undefined, '/home/dev/shop/api/a.ts'), '/home/dev/shop/api');
    assert.equal(foldPath('/home/dev/shop/api', '/home/dev/shop/web/b.ts'), '/home/dev/shop');
    // A file outside the project, or in Antigravity's own folder, does not widen it.
    assert.equal(foldPath('/home/dev/shop', '/home/dev/.config/Code/settings.json'), '/home/dev/shop');
    assert.equal(foldPath('/home/dev/shop', '/etc/hosts'), '/home/dev/shop');
    assert.equal(
      foldPath('/home/dev/shop', '/home/dev/.gemini/antigravity/brain/x/task.md'),
      '/home/dev/shop',
    );
  });
});
