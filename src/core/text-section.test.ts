import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hasSection, putSection, removeSection, renderSection } from './text-section.js';

const M = { begin: '<!-- x:begin -->', end: '<!-- x:end -->' };
const S = renderSection('# Tool\n\n- use it', M);

describe('marked text sections', () => {
  it('appends after one blank line and removes back to the original', () => {
    const orig = '# Project rules\n\n- Use pnpm.\n';
    const out = putSection(orig, S, M);
    assert.equal(out, `${orig}\n${S}`);
    assert.equal(putSection(out, S, M), out);
    assert.equal(removeSection(out, M), orig);
  });

  it('replaces in place and keeps text after the section', () => {
    const orig = `# Rules\n\n${renderSection('old', M)}\n## Later\ntext\n`;
    const out = putSection(orig, S, M);
    assert.ok(out.includes('- use it') && !out.includes('old') && out.endsWith('## Later\ntext\n'));
    assert.equal(removeSection(out, M), '# Rules\n\n## Later\ntext\n');
  });

  it('ignores a marker that is not alone on its line', () => {
    assert.equal(hasSection('see `<!-- x:begin -->` in docs', M), false);
  });

  it('empties a file it created', () => {
    assert.equal(removeSection(putSection('', S, M), M), '');
  });
});
