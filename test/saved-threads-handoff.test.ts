/** `tapedeck thread handoff` on a recorded Claude Code session, indexed the normal way. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ClaudeSession } from './support/claude-session.js';
import { tapedeck } from './support/cli.js';
import { claudePath, type TempHome, tempHome } from './support/home.js';

const SID = '3c3c3c3c-1111-4222-8333-444444444444';
const P = '/home/dev/acme-shop';

/** Page 0 returns a 500: investigated, decided, fixed, then a follow-up left half done. */
export function pageZeroSession(): ClaudeSession {
  return new ClaudeSession(SID, P)
    .user('GET /api/products?page=0 returns a 500 on staging. Find out why and fix it.')
    .say("I'll look at the products route first.")
    .tool(
      'Read',
      { file_path: `${P}/src/api/products.ts` },
      "    1\timport { paginate } from '../lib/pagination.js';\n    2\tif (!rows) throw new Error('no rows');",
    )
    .tool(
      'Bash',
      { command: 'npm test -- src/api/products.test.ts', description: 'Run the products tests' },
      'FAIL src/api/products.test.ts\n  error: OFFSET must not be negative\nTests: 1 failed, 11 passed',
      true,
    )
    .say(
      '`paginate()` computes `(page - 1) * limit` without clamping. We decided to clamp page to at least 1 in paginate() instead of validating in every route, because three routes share it.',
    )
    .tool(
      'Edit',
      { file_path: `${P}/src/lib/pagination.ts`, old_string: 'a', new_string: 'b' },
      `The file ${P}/src/lib/pagination.ts has been updated.`,
    )
    .tool(
      'Edit',
      { file_path: `${P}/src/lib/pagination.ts`, old_string: 'c', new_string: 'd' },
      `The file ${P}/src/lib/pagination.ts has been updated.`,
    )
    .tool(
      'Write',
      { file_path: `${P}/src/lib/pagination.test.ts`, content: 'test' },
      `File created successfully at: ${P}/src/lib/pagination.test.ts`,
    )
    .tool('Bash', { command: 'npm test' }, 'Tests: 12 passed, 12 total')
    .tool(
      'Bash',
      { command: 'npm run db:reset' },
      "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file).",
      true,
    )
    .user("Don't reset the DB, staging shares it. Also make the admin order list use paginate() too.")
    .say('Going with the shared helper there as well. TODO: the CSV export still builds OFFSET by hand.')
    .tool(
      'TodoWrite',
      {
        todos: [
          { content: 'Clamp page', status: 'completed', activeForm: 'Clamping' },
          { content: 'Admin orders paginate', status: 'in_progress', activeForm: 'Switching' },
        ],
      },
      'Todos have been modified successfully.',
    )
    .tool(
      'Edit',
      { file_path: `${P}/src/admin/orders.ts`, old_string: 'e', new_string: 'f' },
      `The file ${P}/src/admin/orders.ts has been updated.`,
    )
    .tool(
      'Bash',
      { command: 'npx tsc --noEmit' },
      "src/admin/orders.ts(12,5): error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'.",
    )
    .say('Type error in orders.ts; looking at the query types next.');
}

describe('thread handoff', () => {
  let h: TempHome;
  before(() => {
    h = tempHome();
    h.write(claudePath(SID), pageZeroSession().text());
    const r = tapedeck(['index', '--json'], h.env);
    assert.equal(r.status, 0, r.stderr);
  });
  after(() => h.cleanup());

  it('builds Goal, Decisions, Files, Risks and Next from the session, with step references', () => {
    const r = tapedeck(['thread', 'handoff', `claude-code:${SID}`, '--json'], h.env);
    assert.equal(r.status, 0, r.stderr);
    const doc = r.json();
    assert.equal(doc.id, `handoff:claude-code:${SID}:1`);
    assert.equal(doc.source_thread, `claude-code:${SID}`);
    assert.equal(
      doc.title,
      'Handoff: GET /api/products?page=0 returns a 500 on staging. Find out why and fix it.',
    );
    const t = (items: { text: string }[]) => items.map((i) => i.text);
    const s = doc.sections;
    assert.deepEqual(t(s.goal), [
      'GET /api/products?page=0 returns a 500 on staging. Find out why and fix it.',
      "Don't reset the DB, staging shares it. Also make the admin order list use paginate() too.",
    ]);
    assert.deepEqual(t(s.decisions), [
      'We decided to clamp page to at least 1 in paginate() instead of validating in every route, because three routes share it.',
      'Going with the shared helper there as well.',
    ]);
    assert.deepEqual(
      s.files.map((f: { path: string; edits: number }) => [f.path, f.edits]),
      [
        ['src/lib/pagination.ts', 2],
        ['src/lib/pagination.test.ts', 1],
        ['src/admin/orders.ts', 1],
      ],
    );
    // The failed `npm test` was settled by a later passing run; the read file's `throw new Error` is code, not a failure.
    assert.deepEqual(t(s.risks), [
      '`npm run db:reset` was rejected by the user',
      "`npx tsc --noEmit` failed: src/admin/orders.ts(12,5): error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'.",
      'TODO: the CSV export still builds OFFSET by hand.',
    ]);
    assert.deepEqual(t(s.next), [
      "Unfinished request: Don't reset the DB, staging shares it. Also make the admin order list use paginate() too.",
      'Open todo: Admin orders paginate',
    ]);
    // Every item points at a real step of the source thread.
    const shown = tapedeck(
      ['show', `claude-code:${SID}`, '--step', String(s.decisions[0].step), '--window', '0', '--json'],
      h.env,
    ).json();
    assert.match(shown.steps[0].text, /We decided to clamp page/);
  });

  it('prints Markdown, saves the handoff as a linked thread, and numbers repeated handoffs', () => {
    const r = tapedeck(['thread', 'handoff', `claude-code:${SID}`, '--title', 'Page zero handoff'], h.env);
    assert.equal(r.status, 0, r.stderr);
    assert.match(
      r.stdout,
      /^# Page zero handoff\n\nFrom `claude-code:3c3c3c3c-[^`]+` \(claude-code, \/home\/dev\/acme-shop, \d+ steps, 2026-03-03\)/,
    );
    for (const heading of ['Goal', 'Decisions', 'Files', 'Risks', 'Next'])
      assert.match(r.stdout, new RegExp(`\\n## ${heading}\\n- `));
    assert.match(r.stdout, /- `src\/lib\/pagination.ts` \(2 edits\)/);
    assert.match(r.stderr, new RegExp(`Saved as handoff:claude-code:${SID}:2`));

    const id = `handoff:claude-code:${SID}:2`;
    const shown = tapedeck(['show', id, '--json'], h.env).json();
    assert.equal(shown.thread.parent_id, `claude-code:${SID}`);
    assert.equal(shown.thread.agent, 'claude-code');
    assert.equal(shown.thread.project, P);
    assert.equal(shown.thread.title, 'Page zero handoff');
    assert.deepEqual(
      shown.steps.map((s: { text: string }) => s.text.split('\n')[0]),
      ['# Page zero handoff', '## Goal', '## Decisions', '## Files', '## Risks', '## Next'],
    );
    const hits = tapedeck(['search', 'CSV export OFFSET', '--json'], h.env).json().hits;
    assert.ok(
      hits.some((x: { thread: string }) => x.thread === id),
      JSON.stringify(hits),
    );
  });

  it('fails clearly for an unknown thread', () => {
    const r = tapedeck(['thread', 'handoff', 'claude-code:nope', '--json'], h.env);
    assert.equal(r.status, 1);
    assert.equal(r.json().error.code, 'NOT_FOUND');
  });
});
