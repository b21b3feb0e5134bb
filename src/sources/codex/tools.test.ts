import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  decodeArguments,
  describeCodexCall,
  patchFiles,
  patchLines,
  readToolOutput,
  shellTarget,
} from './tools.js';

describe('codex tools', () => {
  it('unwraps `bash -lc <script>` and quotes a plain argv only where needed', () => {
    assert.equal(shellTarget(['bash', '-lc', 'npm test']), 'npm test');
    assert.equal(shellTarget(['/bin/zsh', '-c', 'ls -la']), 'ls -la');
    assert.equal(shellTarget(['rg', '-n', 'price cents', 'src']), "rg -n 'price cents' src");
    assert.equal(shellTarget([]), undefined);
  });

  it('targets the files of a patch, however it is delivered', () => {
    const patch =
      '*** Begin Patch\n*** Update File: src/a.ts\n@@\n-x\n+y\n*** Add File: src/b.ts\n+z\n*** Delete File: src/c.ts\n*** End Patch';
    assert.equal(patchFiles(patch), 'src/a.ts, src/b.ts, src/c.ts');
    assert.equal(describeCodexCall('apply_patch', patch).target, 'src/a.ts, src/b.ts, src/c.ts');
    assert.equal(describeCodexCall('apply_patch', { input: patch }).target, 'src/a.ts, src/b.ts, src/c.ts');
    assert.equal(
      describeCodexCall('shell', { command: ['apply_patch', patch] }).target,
      'src/a.ts, src/b.ts, src/c.ts',
    );
    assert.equal(
      describeCodexCall('shell', { command: ['bash', '-lc', `apply_patch <<'EOF'\n${patch}\nEOF`] }).target,
      'src/a.ts, src/b.ts, src/c.ts',
    );
    assert.equal(patchFiles('*** Update File: old.ts\n*** Move to: new.ts'), 'old.ts, new.ts');
  });

  it('reads string commands (shell_command, exec_command)', () => {
    assert.deepEqual(describeCodexCall('shell_command', { command: 'npm run build' }), {
      tool: 'shell_command',
      target: 'npm run build',
      text: 'shell_command npm run build',
    });
    assert.equal(describeCodexCall('exec_command', { cmd: 'git status' }).target, 'git status');
  });

  it('falls back to compact args (≤ 200 chars) and keeps undecodable arguments as text', () => {
    const d = describeCodexCall('mcp__linear__create_issue', { title: 'y'.repeat(300) });
    assert.equal(d.target, undefined);
    assert.equal(d.text.length, 200);
    assert.equal(decodeArguments('{"a":1}') instanceof Object, true);
    assert.equal(decodeArguments('{not json'), '{not json');
    assert.equal(describeCodexCall('shell', decodeArguments('{not json')).text, 'shell {not json');
  });

  it('decides failure from exit_code, "Exit code: N" or success:false', () => {
    assert.deepEqual(readToolOutput('{"output":"boom","metadata":{"exit_code":1}}'), {
      text: 'boom',
      failed: true,
    });
    assert.deepEqual(readToolOutput('{"output":"ok","metadata":{"exit_code":0}}'), {
      text: 'ok',
      failed: false,
    });
    assert.deepEqual(readToolOutput('Exit code: 127\nOutput:\nnpx: not found'), {
      text: 'Exit code: 127\nOutput:\nnpx: not found',
      failed: true,
    });
    assert.deepEqual(readToolOutput('{"unrelated":true}'), { text: '{"unrelated":true}', failed: false });
    assert.deepEqual(readToolOutput([{ type: 'input_text', text: 'a' }, { type: 'input_image' }, 'b']), {
      text: 'a\nb',
      failed: false,
    });
    assert.deepEqual(readToolOutput({ content: 'denied', success: false }), { text: 'denied', failed: true });
    assert.deepEqual(readToolOutput(42), { text: '', failed: false });
  });
  it('keeps the lines a patch changes in the call text, however it is delivered', () => {
    const patch = [
      '*** Begin Patch',
      '*** Update File: src/http/retry.ts',
      '@@ export function backoff(attempt: number) {',
      '   const base = RETRY_DELAY_MS;',
      '-const RETRY_DELAY_MS = 500;',
      '+const RETRY_DELAY_MS = 2_000; // the bank API rate-limits bursts',
      '*** Add File: src/http/retry.test.ts',
      "+test('waits two seconds', () => {});",
      '*** Delete File: src/http/old-retry.ts',
      '*** End of File',
      '*** End Patch',
    ].join('\n');
    const expected = [
      '*** Update File: src/http/retry.ts',
      '@@ export function backoff(attempt: number) {',
      '-const RETRY_DELAY_MS = 500;',
      '+const RETRY_DELAY_MS = 2_000; // the bank API rate-limits bursts',
      '*** Add File: src/http/retry.test.ts',
      "+test('waits two seconds', () => {});",
      '*** Delete File: src/http/old-retry.ts',
    ];
    assert.deepEqual(patchLines(patch), expected);
    const files = 'src/http/retry.ts, src/http/retry.test.ts, src/http/old-retry.ts';
    const body = expected.join('\n');
    // custom_tool_call (freeform input), function_call {input}, argv, heredoc argv, heredoc string.
    assert.equal(describeCodexCall('apply_patch', patch).text, `apply_patch ${files}\n${body}`);
    assert.equal(describeCodexCall('apply_patch', { input: patch }).text, `apply_patch ${files}\n${body}`);
    assert.equal(
      describeCodexCall('shell', { command: ['apply_patch', patch] }).text,
      `shell ${files}\n${body}`,
    );
    const heredoc = `apply_patch <<'EOF'\n${patch}\nEOF`;
    const viaBash = describeCodexCall('shell', { command: ['bash', '-lc', heredoc], workdir: '/w' });
    assert.deepEqual([viaBash.target, viaBash.text], [files, `shell ${files}\n${body}`]);
    const viaString = describeCodexCall('shell_command', { command: heredoc });
    assert.deepEqual([viaString.target, viaString.text], [files, `shell_command ${files}\n${body}`]);
    // A plain command is still just its command line.
    assert.equal(describeCodexCall('shell', { command: ['bash', '-lc', 'npm test'] }).text, 'shell npm test');
  });

  it('caps a huge patch with a marker and leaves a binary one out', () => {
    const big = `*** Begin Patch\n*** Add File: fixtures/big.csv\n${Array.from({ length: 5_000 }, (_, i) => `+row,${i}`).join('\n')}\n*** End Patch`;
    const text = describeCodexCall('apply_patch', big).text;
    assert.ok(text.length < 4_200, `${text.length}`);
    assert.match(text, /\n\[… \d+ more changed lines not indexed\]$/);
    const binary = '*** Begin Patch\n*** Add File: logo.png\n+\u0089PNG\u0000\u0000\n*** End Patch';
    assert.equal(
      describeCodexCall('apply_patch', binary).text,
      'apply_patch logo.png\n[binary content left out]',
    );
  });
});
