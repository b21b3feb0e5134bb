import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeToolCall } from './tools.js';

describe('claude-code describeToolCall', () => {
  it('takes the target from the field each built-in tool acts on', () => {
    assert.deepEqual(describeToolCall('Bash', { command: 'npm run lint', description: 'Lint' }), {
      tool: 'bash',
      target: 'npm run lint',
      text: 'bash npm run lint',
    });
    assert.equal(describeToolCall('Write', { file_path: '/s/a.ts', content: 'x' }).target, '/s/a.ts');
    assert.equal(
      describeToolCall('NotebookEdit', { notebook_path: '/s/n.ipynb', cell_id: 'c1' }).target,
      '/s/n.ipynb',
    );
    assert.equal(describeToolCall('Glob', { pattern: 'src/**/*.test.ts' }).target, 'src/**/*.test.ts');
    assert.equal(describeToolCall('Grep', { pattern: 'TODO', path: 'src' }).target, 'TODO src');
    assert.equal(
      describeToolCall('WebSearch', { query: 'stripe webhook retries' }).target,
      'stripe webhook retries',
    );
    assert.equal(
      describeToolCall('Task', { description: 'Find callers', prompt: '…' }).target,
      'Find callers',
    );
  });

  it('keeps a multi-line command whole as the target', () => {
    const command = 'cd web &&\nnpm run build';
    assert.equal(describeToolCall('Bash', { command }).target, command);
  });

  it('falls back to the tool name plus compact args (≤ 200 chars) for tools without a target', () => {
    const d = describeToolCall('mcp__github__create_issue', { title: 'x'.repeat(400), labels: ['bug'] });
    assert.equal(d.tool, 'mcp__github__create_issue');
    assert.equal(d.target, undefined);
    assert.ok(d.text.startsWith('mcp__github__create_issue {"title":"xxx'));
    assert.equal(d.text.length, 200);
    assert.ok(d.text.endsWith('…'));
  });

  it('copes with a missing or non-object input', () => {
    assert.deepEqual(describeToolCall('Read', undefined), { tool: 'read', text: 'read {}' });
    assert.deepEqual(describeToolCall('Bash', 'ls'), { tool: 'bash', text: 'bash ls' });
  });
});
