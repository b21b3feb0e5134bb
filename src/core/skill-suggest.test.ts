import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { suggestSkills, type WorkspaceSignal } from './skill-suggest.js';

const skills = [
  { name: 'docker-release', description: 'Build and push the Docker image', body: 'docker build .' },
  {
    name: 'db-migrations',
    description: 'Apply database migrations',
    body: 'Run the migration in a container.',
  },
  { name: 'go-profiling', description: 'Profile a Go service', body: 'pprof' },
];
const dockerfile: WorkspaceSignal = { terms: ['docker', 'container'], weight: 2, source: 'Dockerfile' };

describe('skill suggestions', () => {
  it('score a signal once per skill, in its best field, and say why', () => {
    const r = suggestSkills(skills, [dockerfile]);
    assert.deepEqual(
      r.map((s) => [s.name, s.score]),
      [
        ['docker-release', 6],
        ['db-migrations', 2],
      ],
    );
    assert.deepEqual(r[0].reasons, ['Dockerfile (matched "docker" in its name)']);
    assert.deepEqual(r[1].reasons, ['Dockerfile (matched "container" in its body)']);
  });

  it('let the task words count double, said back as the user wrote them', () => {
    const r = suggestSkills(skills, [dockerfile], 'Applying the migrations');
    assert.equal(r[0].name, 'db-migrations');
    assert.match(r[0].reasons[0], /^the task mentions "applying", "migrations"$/);
  });

  it('leave out skills that match nothing', () => {
    assert.deepEqual(suggestSkills(skills, [], ''), []);
  });
});
