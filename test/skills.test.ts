/** Skills through the engine: versions, trust badges, find ranking, proposals, evidence, spaces. */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import type { Engine } from '../src/app/engine.js';
import { claudeLine, claudePath, tempHome } from './support/home.js';

const S1 = '7c7c7c7c-1111-4222-8333-444444444444';

function setup(): Engine {
  const h = tempHome();
  const e = h.engine();
  after(() => {
    e.close();
    h.cleanup();
  });
  return e;
}

const skill = (name: string, description: string, body: string) => ({ name, description, body });
const codeOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    return (e as { code: string }).code;
  }
  return 'no error';
};

test('every change of the text is a new version; earlier versions stay readable', () => {
  const e = setup();
  const content =
    '---\nname: deploy\ndescription: Use when shipping to production\nlicense: MIT\n---\n\n# Deploy\nRun make ship.\n';
  assert.equal(e.skills.add({ content }).version, 1);
  const v2 = e.skills.update('deploy', {
    body: '# Deploy\nRun make ship, then watch the dashboard.\n',
    note: 'watch step',
  });
  assert.equal(v2.version, 2);
  assert.equal(v2.changed, true);
  const same = e.skills.update('deploy', { body: '# Deploy\nRun make ship, then watch the dashboard.\n' });
  assert.equal(same.changed, false, 'identical text is not a version');
  assert.equal(same.version, 2);
  const v3 = e.skills.update('deploy', { description: 'Use when: shipping to prod' });
  assert.equal(v3.version, 3);
  assert.equal(
    e.skills.render('deploy'),
    '---\nname: deploy\ndescription: "Use when: shipping to prod"\nlicense: MIT\n---\n\n# Deploy\nRun make ship, then watch the dashboard.\n',
    'other front matter lines are kept as written',
  );
  assert.equal(
    e.skills.render('deploy', { version: 1 }),
    content,
    'version 1 is byte for byte what was added',
  );
  const old = e.skills.show('deploy', { version: 1 });
  assert.equal(old.shown_version, 1);
  assert.equal(old.version, 3);
  assert.equal(old.description, 'Use when shipping to production');
  assert.match(old.body, /Run make ship\.\n$/);
  assert.deepEqual(
    e.skills.show('deploy').versions.map((v) => [v.version, v.note]),
    [
      [1, null],
      [2, 'watch step'],
      [3, null],
    ],
  );
  assert.equal(
    codeOf(() => e.skills.show('deploy', { version: 4 })),
    'NOT_FOUND',
  );
  assert.equal(
    codeOf(() => e.skills.update('deploy', { content: content.replace('name: deploy', 'name: other') })),
    'INVALID_INPUT',
  );
  assert.equal(
    codeOf(() => e.skills.add({ content })),
    'CONFLICT',
  );
  assert.equal(
    codeOf(() => e.skills.show('missing')),
    'NOT_FOUND',
  );
});

test('trust badge: Draft, Checked, Proven from the current version’s record', () => {
  const e = setup();
  e.skills.add({ ...skill('migrate-db', 'Use when adding a database migration', 'Steps'), stage: 'draft' });
  const badge = () => e.skills.show('migrate-db').badge;
  assert.equal(badge(), 'Draft');
  assert.equal(
    e.skills.recordCheck('migrate-db', 'rollback', 'failed').badge,
    'Draft',
    'a failed check is no pass',
  );
  assert.equal(e.skills.recordCheck('migrate-db', 'rollback', 'passed').badge, 'Checked');
  assert.equal(
    e.skills.recordCheck('migrate-db', 'rollback', 'passed').badge,
    'Checked',
    'the same test again is one check',
  );
  assert.equal(
    e.skills.recordCheck('migrate-db', 'forward', 'passed', { check: 'applies cleanly' }).badge,
    'Proven',
  );
  assert.equal(
    e.skills.recordCheck('migrate-db', 'forward', 'failed').badge,
    'Checked',
    'only the latest result counts',
  );
  assert.equal(
    e.skills.recordOutcome('migrate-db', 'completed_with_deviation').badge,
    'Checked',
    'a deviation is no success',
  );
  assert.equal(e.skills.recordOutcome('migrate-db', 'abandoned').badge, 'Checked');
  const proven = e.skills.recordOutcome('migrate-db', 'completed', { note: 'orders table' });
  assert.equal(proven.badge, 'Proven');
  assert.deepEqual(proven.trust.outcomes, {
    completed: 1,
    completed_with_deviation: 1,
    failed: 0,
    abandoned: 1,
  });
  const d = e.skills.show('migrate-db');
  assert.deepEqual(
    d.tests.map((t) => [t.name, t.check, t.last_result]),
    [
      ['forward', 'applies cleanly', 'failed'],
      ['rollback', '', 'passed'],
    ],
  );

  e.skills.update('migrate-db', { body: 'Rewritten steps' });
  assert.equal(badge(), 'Draft', 'a new version earns trust again');
  assert.equal(
    e.skills.recordOutcome('migrate-db', 'completed', { version: 1 }).badge,
    'Draft',
    'records on old versions do not count',
  );
  assert.equal(
    codeOf(() => e.skills.recordOutcome('migrate-db', 'completed', { version: 9 })),
    'NOT_FOUND',
  );
  assert.equal(
    codeOf(() => e.skills.recordOutcome('migrate-db', 'done')),
    'INVALID_INPUT',
  );
  e.skills.recordOutcome('migrate-db', 'completed');
  e.skills.recordOutcome('migrate-db', 'completed');
  assert.equal(badge(), 'Proven', 'two successful outcomes');
});

test('evidence: linked memories and thread steps make an active skill Checked; bad links change nothing', () => {
  const h = tempHome();
  h.write(
    claudePath(S1),
    `${[claudeLine(S1, 'user', 'migrate the orders table'), claudeLine(S1, 'assistant', 'done, with a rollback script')].join('\n')}\n`,
  );
  const e = h.engine();
  after(() => {
    e.close();
    h.cleanup();
  });
  e.transcripts.index();
  e.skills.add({ ...skill('migrate-db', 'Use when adding a database migration', 'Steps'), stage: 'draft' });
  const thread = `claude-code:${S1}`;
  assert.equal(
    codeOf(() =>
      e.skills.addEvidence('migrate-db', [
        `tapedeck://thread/${thread}#1`,
        'tapedeck://thread/claude-code:nope#0',
      ]),
    ),
    'NOT_FOUND',
  );
  assert.equal(
    codeOf(() => e.skills.addEvidence('migrate-db', [`tapedeck://thread/${thread}#99`])),
    'NOT_FOUND',
  );
  assert.equal(
    codeOf(() => e.skills.addEvidence('migrate-db', ['https://example.com'])),
    'INVALID_INPUT',
  );
  assert.equal(e.skills.show('migrate-db').evidence.length, 0, 'nothing kept from a failed call');

  const r = e.skills.addEvidence('migrate-db', [`tapedeck://thread/${thread}#1`, 'tapedeck://memory/m-123'], {
    note: 'it worked here',
  });
  assert.deepEqual(r.added, [`tapedeck://thread/${thread}#1`, 'tapedeck://memory/m-123']);
  assert.equal(r.badge, 'Draft', 'a draft with evidence is still Draft');
  assert.deepEqual(e.skills.addEvidence('migrate-db', ['tapedeck://memory/m-123']).already, [
    'tapedeck://memory/m-123',
  ]);
  assert.equal(e.skills.setStage('migrate-db', 'active').badge, 'Checked', 'active + evidence');
  assert.deepEqual(
    e.skills.removeEvidence('migrate-db', [`tapedeck://thread/${thread}#1`, 'tapedeck://memory/m-123'])
      .removed.length,
    2,
  );
  assert.equal(e.skills.show('migrate-db').badge, 'Draft');
});

test('find ranks by name, then description, then body, lifted for active and trusted skills', () => {
  const e = setup();
  e.skills.add(
    skill(
      'release-notes',
      'Use when writing release notes from merged pull requests',
      'List merged PRs, group them.',
    ),
  );
  e.skills.add(
    skill(
      'changelog-lint',
      'Use when CI complains about the changelog',
      'Check headings. Release notes live in CHANGELOG.md.',
    ),
  );
  e.skills.add(skill('deploy', 'Use when shipping to production', 'Tag the release, then run make ship.'));
  e.skills.add({
    ...skill('old-release', 'Use when writing release notes the old way', 'Deprecated.'),
    stage: 'archived',
  });
  e.skills.add(skill('flaky-tests', 'Use when a test fails only in CI', 'Re-run with --repeat 50.'));

  const r = e.skills.find('write the release notes for this week');
  assert.deepEqual(
    r.hits.map((h) => h.name),
    ['release-notes', 'changelog-lint', 'deploy'],
  );
  assert.deepEqual(Object.keys(r.hits[0]).sort(), [
    'badge',
    'description',
    'name',
    'score',
    'stage',
    'version',
  ]);
  assert.ok(r.hits[0].score > r.hits[1].score);
  assert.ok(
    e.skills.find('release notes', { includeArchived: true }).hits.some((h) => h.name === 'old-release'),
    'archived only when asked',
  );

  // The same text as a draft ranks below the active skill; trust lifts a skill further.
  e.skills.add({
    ...skill(
      'release-notes-draft',
      'Use when writing release notes from merged pull requests',
      'List merged PRs, group them.',
    ),
    stage: 'draft',
  });
  assert.deepEqual(
    e.skills
      .find('release notes merged pull requests')
      .hits.slice(0, 2)
      .map((h) => h.name),
    ['release-notes', 'release-notes-draft'],
  );
  e.skills.setStage('release-notes-draft', 'active');
  e.skills.recordOutcome('release-notes-draft', 'completed');
  e.skills.recordOutcome('release-notes-draft', 'completed');
  const top = e.skills.find('release notes merged pull requests').hits[0];
  assert.deepEqual([top.name, top.badge], ['release-notes-draft', 'Proven']);

  assert.deepEqual(e.skills.find('kubernetes helm chart').hits, []);
  assert.equal(
    codeOf(() => e.skills.find('  ')),
    'INVALID_INPUT',
  );
});

test('index lists active skills, one line each, most trusted first', () => {
  const e = setup();
  e.skills.add(skill('b-skill', 'Use for b', 'b'));
  e.skills.add(skill('a-skill', 'Use for a', 'a'));
  e.skills.add({ ...skill('c-draft', 'Use for c', 'c'), stage: 'draft' });
  e.skills.recordCheck('b-skill', 't', 'passed');
  assert.deepEqual(e.skills.index(), [
    { name: 'b-skill', description: 'Use for b', badge: 'Checked', stage: 'active' },
    { name: 'a-skill', description: 'Use for a', badge: 'Draft', stage: 'active' },
  ]);
});

test('proposals: new skills become drafts, improvements wait for a person', () => {
  const e = setup();
  const created = e.skills.propose({
    ...skill('triage-bug', 'Use when a bug report arrives', 'Reproduce first.'),
    note: 'learned today',
  });
  assert.equal(created.status, 'created');
  assert.equal(e.skills.show('triage-bug').stage, 'draft');

  const p = e.skills.propose({
    name: 'triage-bug',
    body: 'Reproduce first. Then bisect.',
    note: 'add bisect',
  });
  assert.equal(p.status, 'proposed');
  assert.equal(e.skills.show('triage-bug').version, 1, 'the skill is unchanged until accepted');
  assert.equal(e.skills.show('triage-bug').pending_proposals.length, 1);
  assert.equal(
    codeOf(() => e.skills.propose({ name: 'triage-bug', body: 'Reproduce first.' })),
    'INVALID_INPUT',
  );
  const [listed] = e.skills.proposals('triage-bug');
  assert.match(listed.content, /Then bisect\./);

  const accepted = e.skills.accept('triage-bug', p.proposal!.slice(0, 8));
  assert.equal(accepted.version, 2);
  assert.match(e.skills.show('triage-bug').body, /Then bisect/);
  assert.equal(e.skills.show('triage-bug').versions[1].note, `accepted proposal ${p.proposal}: add bisect`);
  assert.equal(
    codeOf(() => e.skills.accept('triage-bug', p.proposal!)),
    'CONFLICT',
    'accepted once',
  );

  const stale = e.skills.propose({ name: 'triage-bug', description: 'Use when a bug is reported' });
  e.skills.update('triage-bug', { body: 'Someone else changed it.' });
  assert.equal(
    codeOf(() => e.skills.accept('triage-bug', stale.proposal!)),
    'CONFLICT',
    'written against an older version',
  );
  assert.equal(e.skills.accept('triage-bug', stale.proposal!, { force: true }).version, 4);

  const rejected = e.skills.propose({ name: 'triage-bug', body: 'Nope.' });
  assert.equal(e.skills.reject('triage-bug', rejected.proposal!).status, 'rejected');
  assert.equal(e.skills.proposals('triage-bug').length, 0);
  assert.equal(e.skills.proposals('triage-bug', { all: true }).length, 3);
  assert.equal(
    codeOf(() => e.skills.accept('triage-bug', 'zz')),
    'INVALID_INPUT',
  );
  assert.equal(
    codeOf(() => e.skills.accept('triage-bug', 'ffffffff')),
    'NOT_FOUND',
  );
});

test('spaces keep skills apart; secrets are redacted before storing', () => {
  const e = setup();
  e.skills.add({
    ...skill('deploy', 'Use when shipping', 'Use token ghp_abcdefghijklmnopqrstuvwxyz0123456789 to push.'),
    space: 'work',
  });
  assert.equal(e.skills.list().length, 0);
  assert.equal(e.skills.list({ space: 'work' }).length, 1);
  assert.equal(e.skills.find('shipping').hits.length, 0);
  assert.equal(e.skills.find('shipping', { space: 'work' }).hits.length, 1);
  assert.match(e.skills.show('deploy', { space: 'work' }).body, /\[REDACTED:github-token\]/);
  assert.equal(
    codeOf(() => e.skills.list({ space: 'Bad Space' })),
    'INVALID_INPUT',
  );
});
