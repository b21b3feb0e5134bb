/**
 * Skills on every backend: versions, stages, trust badges, evidence, find ranking and full-text
 * edge cases, proposals, spaces, import/export byte for byte, and two writers creating the same
 * skill at once — through the real skills service over each backend's store, and through the
 * engine, whose evidence links are checked against a really indexed transcript. One scripted
 * sequence must give identical outputs (find scores included) on SQLite and PostgreSQL.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type TestContext, test } from 'node:test';
import type { BackendKind } from '../../src/ports/stores.js';
import { createSkillsService } from '../../src/services/skills/service.js';
import { createSpaceService } from '../../src/services/spaces.js';
import { BACKENDS, indexedHome, openTestStores } from '../support/backends.js';
import { raceWriters } from './skills-wiki-race.js';

const THREAD = 'claude-code:7c7c7c7c-1111-4222-8333-444444444444';

function lab(t: TestContext, kind: BackendKind) {
  const s = openTestStores(kind);
  t.after(s.cleanup);
  const clock = { now: Date.parse('2026-06-01T12:00:00.000Z') };
  const spaces = createSpaceService({});
  const skills = createSkillsService({
    store: s.stores.skills,
    resolveSpace: ({ space, cwd }) => spaces.resolve({ space, cwd }),
    // A transcript with one thread of two steps (0 and 1).
    threadStep: (thread, step) => (thread !== THREAD ? 'no-thread' : step <= 1 ? 'ok' : 'no-step'),
    now: () => (clock.now += 1000),
  });
  return { skills, clock, stores: s.stores };
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

function tempDir(t: TestContext): string {
  const d = mkdtempSync(join(tmpdir(), 'tapedeck-skills-contract-'));
  t.after(() => rmSync(d, { recursive: true, force: true }));
  return d;
}

for (const b of BACKENDS) {
  test(`every change of the text is a new version; old versions render byte for byte (${b.name})`, {
    skip: b.skip,
  }, (t) => {
    const { skills } = lab(t, b.name);
    const content =
      '---\nname: deploy\ndescription: Use when shipping to production\nlicense: MIT\n---\n\n# Deploy\nRun make ship.\n';
    assert.equal(skills.add({ content }).version, 1);
    const v2 = skills.update('deploy', {
      body: '# Deploy\nRun make ship, then watch the dashboard.\n',
      note: 'watch',
    });
    assert.deepEqual([v2.version, v2.changed], [2, true]);
    const same = skills.update('deploy', { body: '# Deploy\nRun make ship, then watch the dashboard.\n' });
    assert.deepEqual([same.version, same.changed], [2, false], 'identical text is not a version');
    assert.equal(skills.update('deploy', { description: 'Use when: shipping to prod' }).version, 3);
    assert.equal(
      skills.render('deploy'),
      '---\nname: deploy\ndescription: "Use when: shipping to prod"\nlicense: MIT\n---\n\n# Deploy\nRun make ship, then watch the dashboard.\n',
    );
    assert.equal(skills.render('deploy', { version: 1 }), content, 'version 1 is what was added');
    const old = skills.show('deploy', { version: 1 });
    assert.equal(old.shown_version, 1);
    assert.equal(old.version, 3);
    assert.equal(old.description, 'Use when shipping to production');
    assert.match(old.body, /Run make ship\.\n$/);
    assert.deepEqual(
      skills.show('deploy').versions.map((v) => [v.version, v.note]),
      [
        [1, null],
        [2, 'watch'],
        [3, null],
      ],
    );
    assert.equal(
      codeOf(() => skills.show('deploy', { version: 4 })),
      'NOT_FOUND',
    );
    assert.equal(
      codeOf(() => skills.update('deploy', { content: content.replace('name: deploy', 'name: other') })),
      'INVALID_INPUT',
      'an update cannot rename the skill',
    );
    assert.equal(
      codeOf(() => skills.add({ content })),
      'CONFLICT',
    );
    assert.throws(() => skills.add({ content }), /Skill "deploy" already exists in space default/);
    assert.equal(
      codeOf(() => skills.show('missing')),
      'NOT_FOUND',
    );
  });

  test(`trust badge: Draft, Checked, Proven from the current version's record (${b.name})`, {
    skip: b.skip,
  }, (t) => {
    const { skills } = lab(t, b.name);
    skills.add({ ...skill('migrate-db', 'Use when adding a database migration', 'Steps'), stage: 'draft' });
    const badge = () => skills.show('migrate-db').badge;
    assert.equal(badge(), 'Draft');
    assert.equal(skills.recordCheck('migrate-db', 'rollback', 'failed').badge, 'Draft');
    assert.equal(skills.recordCheck('migrate-db', 'rollback', 'passed').badge, 'Checked');
    assert.equal(
      skills.recordCheck('migrate-db', 'rollback', 'passed').badge,
      'Checked',
      'one check per test',
    );
    assert.equal(
      skills.recordCheck('migrate-db', 'forward', 'passed', { check: 'applies cleanly' }).badge,
      'Proven',
    );
    assert.equal(
      skills.recordCheck('migrate-db', 'forward', 'failed').badge,
      'Checked',
      'only the latest counts',
    );
    assert.equal(skills.recordOutcome('migrate-db', 'completed_with_deviation').badge, 'Checked');
    assert.equal(skills.recordOutcome('migrate-db', 'abandoned').badge, 'Checked');
    const proven = skills.recordOutcome('migrate-db', 'completed', { note: 'orders table' });
    assert.equal(proven.badge, 'Proven');
    assert.deepEqual(proven.trust.outcomes, {
      completed: 1,
      completed_with_deviation: 1,
      failed: 0,
      abandoned: 1,
    });
    assert.deepEqual(
      skills.show('migrate-db').tests.map((x) => [x.name, x.check, x.last_result]),
      [
        ['forward', 'applies cleanly', 'failed'],
        ['rollback', '', 'passed'],
      ],
      'a test re-recorded without a check keeps its check text',
    );
    skills.update('migrate-db', { body: 'Rewritten steps' });
    assert.equal(badge(), 'Draft', 'a new version earns trust again');
    assert.equal(skills.recordOutcome('migrate-db', 'completed', { version: 1 }).badge, 'Draft');
    assert.equal(
      codeOf(() => skills.recordOutcome('migrate-db', 'completed', { version: 9 })),
      'NOT_FOUND',
    );
    assert.equal(
      codeOf(() => skills.recordOutcome('migrate-db', 'done')),
      'INVALID_INPUT',
    );
    skills.recordOutcome('migrate-db', 'completed');
    skills.recordOutcome('migrate-db', 'completed');
    assert.equal(badge(), 'Proven', 'two successful outcomes');
    assert.deepEqual(
      skills.show('migrate-db').recent_outcomes.map((o) => [o.version, o.outcome]),
      [
        [2, 'completed'],
        [2, 'completed'],
        [1, 'completed'],
        [1, 'completed'],
        [1, 'abandoned'],
        [1, 'completed_with_deviation'],
      ],
      'newest first',
    );
  });

  test(`evidence makes an active skill Checked; a bad link keeps nothing (${b.name})`, {
    skip: b.skip,
  }, (t) => {
    const { skills } = lab(t, b.name);
    skills.add({ ...skill('migrate-db', 'Use when adding a database migration', 'Steps'), stage: 'draft' });
    assert.equal(
      codeOf(() =>
        skills.addEvidence('migrate-db', [
          `tapedeck://thread/${THREAD}#1`,
          'tapedeck://thread/claude-code:nope#0',
        ]),
      ),
      'NOT_FOUND',
    );
    assert.equal(
      codeOf(() => skills.addEvidence('migrate-db', [`tapedeck://thread/${THREAD}#99`])),
      'NOT_FOUND',
    );
    assert.equal(
      codeOf(() => skills.addEvidence('migrate-db', ['https://example.com'])),
      'INVALID_INPUT',
    );
    assert.equal(skills.show('migrate-db').evidence.length, 0, 'nothing kept from a failed call');
    const r = skills.addEvidence('migrate-db', [`tapedeck://thread/${THREAD}#1`, 'tapedeck://memory/m-123'], {
      note: 'it worked here',
    });
    assert.deepEqual(r.added, [`tapedeck://thread/${THREAD}#1`, 'tapedeck://memory/m-123']);
    assert.equal(r.badge, 'Draft', 'a draft with evidence is still Draft');
    assert.deepEqual(skills.addEvidence('migrate-db', ['tapedeck://memory/m-123']).already, [
      'tapedeck://memory/m-123',
    ]);
    assert.equal(skills.setStage('migrate-db', 'active').badge, 'Checked', 'active + evidence');
    assert.deepEqual(
      skills.show('migrate-db').evidence.map((e) => [e.uri, e.note]),
      [
        [`tapedeck://thread/${THREAD}#1`, 'it worked here'],
        ['tapedeck://memory/m-123', 'it worked here'],
      ],
      'in the order they were linked',
    );
    assert.equal(
      skills.removeEvidence('migrate-db', [`tapedeck://thread/${THREAD}#1`, 'tapedeck://memory/m-123'])
        .removed.length,
      2,
    );
    assert.equal(skills.show('migrate-db').badge, 'Draft');
  });

  test(`find ranks by name, description, body, lifted for active and trusted skills (${b.name})`, {
    skip: b.skip,
  }, (t) => {
    const { skills } = lab(t, b.name);
    skills.add(
      skill(
        'release-notes',
        'Use when writing release notes from merged pull requests',
        'List merged PRs, group them.',
      ),
    );
    skills.add(
      skill(
        'changelog-lint',
        'Use when CI complains about the changelog',
        'Check headings. Release notes live in CHANGELOG.md.',
      ),
    );
    skills.add(skill('deploy', 'Use when shipping to production', 'Tag the release, then run make ship.'));
    skills.add({
      ...skill('old-release', 'Use when writing release notes the old way', 'Deprecated.'),
      stage: 'archived',
    });
    skills.add(skill('flaky-tests', 'Use when a test fails only in CI', 'Re-run with --repeat 50.'));

    const r = skills.find('write the release notes for this week');
    assert.deepEqual(
      r.hits.map((h) => h.name),
      ['release-notes', 'changelog-lint', 'deploy'],
    );
    assert.ok(r.hits[0].score > r.hits[1].score);
    assert.deepEqual(Object.keys(r.hits[0]).sort(), [
      'badge',
      'description',
      'name',
      'score',
      'stage',
      'version',
    ]);
    assert.ok(
      skills.find('release notes', { includeArchived: true }).hits.some((h) => h.name === 'old-release'),
    );
    // The same text as a draft ranks below the active skill; trust lifts a skill further.
    skills.add({
      ...skill(
        'release-notes-draft',
        'Use when writing release notes from merged pull requests',
        'List merged PRs, group them.',
      ),
      stage: 'draft',
    });
    assert.deepEqual(
      skills
        .find('release notes merged pull requests')
        .hits.slice(0, 2)
        .map((h) => h.name),
      ['release-notes', 'release-notes-draft'],
    );
    skills.setStage('release-notes-draft', 'active');
    skills.recordOutcome('release-notes-draft', 'completed');
    skills.recordOutcome('release-notes-draft', 'completed');
    const top = skills.find('release notes merged pull requests').hits[0];
    assert.deepEqual([top.name, top.badge], ['release-notes-draft', 'Proven']);
    assert.deepEqual(skills.find('kubernetes helm chart').hits, []);
    assert.equal(
      codeOf(() => skills.find('  ')),
      'INVALID_INPUT',
    );
  });

  test(`find: stems, prefixes, exclusions, identifiers, diacritics, and no query syntax errors (${b.name})`, {
    skip: b.skip,
  }, (t) => {
    const { skills } = lab(t, b.name);
    skills.add(
      skill('deploy-app', 'Use when deploying the café app', 'Call handle_webhook, then src/db.ts migrate.'),
    );
    skills.add(skill('archive-logs', 'Use when logs pile up', 'Deployed logs go to the archive.'));
    skills.add(skill('naive-sort', 'Use when sorting naïvely', 'Quick and dirty.'));
    const names = (q: string) =>
      skills
        .find(q)
        .hits.map((h) => h.name)
        .sort();
    assert.deepEqual(
      names('deploys'),
      ['archive-logs', 'deploy-app'],
      'deploy, deploying, deployment share a stem',
    );
    assert.deepEqual(names('deplo*'), ['archive-logs', 'deploy-app'], 'a prefix');
    assert.deepEqual(names('deploy -archive'), ['deploy-app'], 'an exclusion');
    assert.deepEqual(names('cafe'), ['deploy-app'], 'diacritics are ignored');
    assert.deepEqual(names('naïve'), ['naive-sort']);
    assert.deepEqual(names('handle_webhook'), ['deploy-app'], 'a snake_case identifier');
    assert.deepEqual(names('src/db.ts'), ['deploy-app'], 'a path');
    assert.deepEqual(names('"dirty quick"'), [], 'a phrase keeps its order');
    assert.deepEqual(names('"quick and dirty"'), ['naive-sort']);
    for (const q of [
      "foo & bar | !baz <-> 'x':* (",
      '"unbalanced',
      "it's o'clock \\ \\\\",
      '*** ::: !!',
      '-',
      '-"deploy"',
      'ünïcödé 日本語 🦛',
      `${'long '.repeat(390)}deploy`,
    ])
      assert.doesNotThrow(() => skills.find(q), q);
    assert.deepEqual(names('!!deploy:*'), ['archive-logs', 'deploy-app'], 'operators are only punctuation');
  });

  test(`index lists active skills, most trusted first (${b.name})`, { skip: b.skip }, (t) => {
    const { skills } = lab(t, b.name);
    skills.add(skill('b-skill', 'Use for b', 'b'));
    skills.add(skill('a-skill', 'Use for a', 'a'));
    skills.add({ ...skill('c-draft', 'Use for c', 'c'), stage: 'draft' });
    skills.recordCheck('b-skill', 't', 'passed');
    assert.deepEqual(skills.index(), [
      { name: 'b-skill', description: 'Use for b', badge: 'Checked', stage: 'active' },
      { name: 'a-skill', description: 'Use for a', badge: 'Draft', stage: 'active' },
    ]);
    assert.deepEqual(
      skills.list({ includeArchived: true }).map((s) => s.name),
      ['a-skill', 'b-skill', 'c-draft'],
      'lists sort by name',
    );
  });

  test(`proposals: new skills become drafts, improvements wait for a person (${b.name})`, {
    skip: b.skip,
  }, (t) => {
    const { skills } = lab(t, b.name);
    assert.equal(
      skills.propose({
        ...skill('triage-bug', 'Use when a bug report arrives', 'Reproduce first.'),
        note: 'x',
      }).status,
      'created',
    );
    assert.equal(skills.show('triage-bug').stage, 'draft');
    const p = skills.propose({
      name: 'triage-bug',
      body: 'Reproduce first. Then bisect.',
      note: 'add bisect',
    });
    assert.equal(p.status, 'proposed');
    assert.equal(skills.show('triage-bug').version, 1);
    assert.equal(skills.show('triage-bug').pending_proposals.length, 1);
    assert.equal(
      codeOf(() => skills.propose({ name: 'triage-bug', body: 'Reproduce first.' })),
      'INVALID_INPUT',
      'a proposal that changes nothing',
    );
    const [listed] = skills.proposals('triage-bug');
    assert.match(listed!.content, /Then bisect\./);
    assert.equal(skills.accept('triage-bug', p.proposal!.slice(0, 8)).version, 2);
    assert.match(skills.show('triage-bug').body, /Then bisect/);
    assert.equal(skills.show('triage-bug').versions[1].note, `accepted proposal ${p.proposal}: add bisect`);
    assert.equal(
      codeOf(() => skills.accept('triage-bug', p.proposal!)),
      'CONFLICT',
      'accepted once',
    );
    const stale = skills.propose({ name: 'triage-bug', description: 'Use when a bug is reported' });
    skills.update('triage-bug', { body: 'Someone else changed it.' });
    assert.equal(
      codeOf(() => skills.accept('triage-bug', stale.proposal!)),
      'CONFLICT',
    );
    assert.equal(skills.accept('triage-bug', stale.proposal!, { force: true }).version, 4);
    const rejected = skills.propose({ name: 'triage-bug', body: 'Nope.' });
    assert.equal(skills.reject('triage-bug', rejected.proposal!).status, 'rejected');
    assert.equal(skills.proposals('triage-bug').length, 0);
    assert.equal(skills.proposals('triage-bug', { all: true }).length, 3);
    assert.equal(
      codeOf(() => skills.accept('triage-bug', 'ffffffff')),
      'NOT_FOUND',
    );
    assert.equal(
      codeOf(() => skills.accept('triage-bug', 'zz')),
      'INVALID_INPUT',
    );
  });

  test(`spaces keep skills apart; secrets are redacted before storing (${b.name})`, { skip: b.skip }, (t) => {
    const { skills } = lab(t, b.name);
    skills.add({
      ...skill('deploy', 'Use when shipping', 'Use token ghp_abcdefghijklmnopqrstuvwxyz0123456789 to push.'),
      space: 'work',
    });
    skills.add(skill('deploy', 'Use when shipping at home', 'Push.'));
    assert.deepEqual(
      skills.list().map((s) => s.description),
      ['Use when shipping at home'],
    );
    assert.equal(skills.list({ space: 'work' }).length, 1);
    assert.equal(skills.find('token', { space: 'default' }).hits.length, 0);
    assert.equal(skills.find('token', { space: 'work' }).hits.length, 1);
    assert.match(skills.show('deploy', { space: 'work' }).body, /\[REDACTED:github-token\]/);
    assert.equal(
      codeOf(() => skills.list({ space: 'Bad Space' })),
      'INVALID_INPUT',
    );
  });

  test(`import and export keep SKILL.md byte for byte (${b.name})`, { skip: b.skip }, (t) => {
    const { skills } = lab(t, b.name);
    const src = tempDir(t);
    const files: Record<string, string> = {
      'crlf-skill':
        '---\r\nname: crlf-skill\r\ndescription: Use when lines end in CRLF\r\n---\r\n\r\nBody\r\n',
      'unicode-skill':
        '---\nname: unicode-skill\ndescription: "Use when: écrire 日本語 🦛"\nx-extra: [1, 2]\n---\n\n# Tïtle\n\n\ttabbed\n\n\n',
      'long-skill': `---\nname: long-skill\ndescription: Use for a long body\n---\n${'line with 100% _under_ score\n'.repeat(4000)}`,
    };
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(join(src, name));
      writeFileSync(join(src, name, 'SKILL.md'), text);
    }
    const imported = skills.importDir(src);
    assert.deepEqual(
      imported.skills.map((s) => [s.name, s.status, s.version]),
      [
        ['crlf-skill', 'created', 1],
        ['long-skill', 'created', 1],
        ['unicode-skill', 'created', 1],
      ],
    );
    assert.deepEqual(
      skills.importDir(src).skills.map((s) => s.status),
      ['unchanged', 'unchanged', 'unchanged'],
      'importing again changes nothing',
    );
    const out = join(tempDir(t), 'out');
    skills.exportDir(out);
    for (const [name, text] of Object.entries(files))
      assert.equal(readFileSync(join(out, name, 'SKILL.md'), 'utf8'), text, name);
    writeFileSync(join(src, 'crlf-skill', 'SKILL.md'), files['crlf-skill'].replace('Body', 'Body v2'));
    assert.deepEqual(
      skills.importDir(src).skills.map((s) => s.status),
      ['updated', 'unchanged', 'unchanged'],
    );
    assert.equal(skills.render('crlf-skill', { version: 1 }), files['crlf-skill']);
  });

  test(`the engine's skills service runs on this backend; evidence is checked against an indexed transcript (${b.name})`, {
    skip: b.skip,
  }, (t) => {
    const {
      h,
      engine: e,
      thread,
    } = indexedHome(t, b.name, '7c7c7c7c-1111-4222-8333-444444444444', [
      'migrate the orders table',
      'done, with a rollback script',
    ]);
    e.skills.add(skill('deploy', 'Use when shipping to production', 'Run make ship.'));
    const other = h.engine();
    t.after(() => other.close());
    assert.deepEqual(
      other.skills.find('shipping production').hits.map((x) => x.name),
      ['deploy'],
    );
    assert.equal(
      codeOf(() =>
        e.skills.addEvidence('deploy', [
          `tapedeck://thread/${thread}#1`,
          'tapedeck://thread/claude-code:nope#0',
        ]),
      ),
      'NOT_FOUND',
    );
    assert.equal(
      codeOf(() => e.skills.addEvidence('deploy', [`tapedeck://thread/${thread}#99`])),
      'NOT_FOUND',
    );
    assert.equal(e.skills.show('deploy').evidence.length, 0, 'nothing kept from a failed call');
    assert.deepEqual(e.skills.addEvidence('deploy', [`tapedeck://thread/${thread}#1`]).added, [
      `tapedeck://thread/${thread}#1`,
    ]);
    assert.equal(other.skills.show('deploy').badge, 'Checked', 'active + evidence');
  });

  test(`two processes adding the same skill at once: one wins, the others get CONFLICT (${b.name})`, {
    skip: b.skip,
  }, async (t) => {
    const { results, stores } = await raceWriters(t, b.name, 'skill', 4);
    const created = results.filter((r) => r.ok);
    assert.equal(created.length, 1, JSON.stringify(results));
    for (const r of results.filter((x) => !x.ok)) {
      assert.equal(r.code, 'CONFLICT', JSON.stringify(r));
      assert.match(r.message ?? '', /Skill "race" already exists in space default/);
    }
    const stored = stores.skills.get('default', 'race');
    assert.equal(stored?.description, created[0].result?.description, 'the winner is what is stored');
    assert.equal(stores.skills.versions(stored!.id).length, 1, 'the losers wrote nothing');
  });
}

test('one scripted sequence gives the same answers on every backend', (t) => {
  const run = (kind: BackendKind) => {
    const { skills } = lab(t, kind);
    const out: unknown[] = [];
    const step = (label: string, fn: () => unknown) => {
      try {
        out.push([label, fn()]);
      } catch (e) {
        out.push([label, 'error', (e as { code?: string }).code, (e as Error).message]);
      }
    };
    let proposal = '';
    step('add', () =>
      skills.add(skill('release-notes', 'Use when writing release notes', 'List merged PRs.')),
    );
    step('add 2', () =>
      skills.add(skill('deploy', 'Use when shipping to production', 'Tag the release; run make ship.')),
    );
    step('add 3', () =>
      skills.add({
        ...skill('hotfix', 'Use when production is down', 'Patch, deploy, write notes.'),
        stage: 'draft',
      }),
    );
    step('add 4', () =>
      skills.add(skill('cafe-names', 'Use when naming the naïve café', 'Pick the Café name.')),
    );
    step('add bad name', () => skills.add(skill('naïve-café', 'Use when naming is hard', 'x')));
    step('add dup', () => skills.add(skill('deploy', 'Again', 'x')));
    step('update', () =>
      skills.update('deploy', { body: 'Tag the release; run make ship; watch errors.', note: 'watch' }),
    );
    step('check', () => skills.recordCheck('deploy', 'smoke', 'passed', { check: 'site answers' }));
    step('outcome', () => skills.recordOutcome('deploy', 'completed'));
    step('evidence', () =>
      skills.addEvidence('hotfix', ['tapedeck://memory/m-1', `tapedeck://thread/${THREAD}#0`]),
    );
    step('propose', () => {
      const p = skills.propose({ name: 'release-notes', body: 'List merged PRs, grouped.', note: 'group' });
      proposal = p.proposal ?? '';
      return p;
    });
    step('accept', () => skills.accept('release-notes', proposal));
    step('stage', () => skills.setStage('hotfix', 'active'));
    step('add 5', () =>
      skills.add(
        skill(
          'webhook-drain',
          'Use when a Deployment waits on webhooks',
          'Call handle_webhook; see handleWebhook.ts in src/payments/webhook.ts.',
        ),
      ),
    );
    step('add 6', () =>
      skills.add(
        skill('resume-writing', 'Use when writing a Résumé', 'Crème brûlée first; deployments later.'),
      ),
    );
    for (const q of [
      'deployments',
      'Deployment',
      'handle',
      'handle_webhook',
      'handleWebhook',
      'webhook.ts',
      'src/payments/webhook.ts',
      'resume',
      'RÉSUMÉ',
      '"creme brulee"',
      'deploy* -webhook',
      'write release notes',
      'production deploy',
      'ship* -hotfix',
      'cafe',
      'naïve',
      'make ship',
      '"run make ship"',
      'nothing-matches-this',
      "o'clock & | !",
    ])
      step(`find ${q}`, () => skills.find(q, { includeArchived: true }));
    step('index', () => skills.index());
    step('list', () => skills.list({ includeArchived: true }));
    const shown = (name: string) => {
      const d = skills.show(name);
      return { ...d, pending_proposals: d.pending_proposals.length };
    };
    step('show deploy', () => shown('deploy'));
    step('show hotfix', () => shown('hotfix'));
    step('show release-notes', () => shown('release-notes'));
    step('render v1', () => skills.render('deploy', { version: 1 }));
    step('archive', () => skills.setStage('release-notes', 'archived'));
    step('find archived hidden', () => skills.find('release notes'));
    step('missing', () => skills.show('nope'));
    // Proposal ids are random UUIDs: name them by first appearance.
    const seen = new Map<string, string>();
    return JSON.parse(
      JSON.stringify(out).replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (id) => {
        if (!seen.has(id)) seen.set(id, `<id ${seen.size + 1}>`);
        return seen.get(id)!;
      }),
    );
  };
  const results = BACKENDS.filter((b) => !b.skip).map((b) => run(b.name));
  for (const r of results.slice(1)) assert.deepEqual(r, results[0]);
});
