/** A store holding every kind of knowledge record, for the fs and export/import tests. */
import type { Engine } from '../../src/app/engine.js';

export const SKILL_V1 = `---
name: deploy-app
description: Deploy the shop to production
---

# Deploy
Run \`make deploy\` from the repository root.
`;

export const SKILL_V2 = `---
name: deploy-app
description: Deploy the shop to production safely
metadata:
  owner: ops
---

# Deploy
1. Run \`make test\`.
2. Run \`make deploy\`.
`;

export interface Fixture {
  threadId: string;
  memory: string;
  superseded: string;
  successor: string;
  forgotten: string;
  workMemory: string;
  ruleGlobal: string;
  ruleWork: string;
}

/** Fill an engine with memories, rules, skills, wiki pages, saved threads and working-memory edits. */
export async function populate(e: Engine): Promise<Fixture> {
  const saved = e.savedThreads.import({
    id: 'chat-42',
    title: 'Billing migration',
    source: 'cursor',
    project: '/home/dev/shop',
    metadata: { model: 'gpt-x', tags: ['billing'] },
    idempotencyKey: 'import-chat-42',
    messages: [
      {
        role: 'user',
        content: 'Move billing to Postgres?',
        external_id: 'm1',
        timestamp: '2026-03-01T10:00:00.000Z',
      },
      {
        role: 'assistant',
        content: 'Yes: we decided to use Postgres for billing.',
        external_id: 'm2',
        timestamp: '2026-03-01T10:01:00.000Z',
      },
    ],
  });
  e.savedThreads.append({
    thread: saved.thread_id,
    expectedMessageCount: 2,
    idempotencyKey: 'append-1',
    messages: [
      {
        role: 'user',
        content: 'TODO: migrate the invoices table',
        external_id: 'm3',
        timestamp: '2026-03-01T10:05:00.000Z',
      },
    ],
  });
  e.savedThreads.import({
    id: 'work-chat',
    space: 'work',
    messages: [{ role: 'user', content: 'Work space chat' }],
  });

  const memory = e.memories.add({
    content: 'Billing uses Postgres 16 with logical replication',
    title: 'Billing database',
    type: 'decision',
    labels: ['db', 'ci/cd'],
    importance: 0.8,
    project: '/home/dev/shop',
    thread: saved.thread_id,
    steps: '0-1',
    eventStart: '2026-03-01',
  }).id;
  const superseded = e.memories.add({ content: 'The cache is Redis 6', labels: ['cache'] }).id;
  // A millisecond between them, so the old memory has a moment when it alone was valid (--as-of).
  for (const t = Date.now(); Date.now() === t; );
  const successor = e.memories.supersede(superseded, { content: 'The cache is Valkey 8 (Redis fork)' }).id;
  const forgotten = e.memories.add({
    content: 'A wrong note about the deploy window',
    source: 'https://example.com/x',
  }).id;
  e.memories.forget(forgotten);
  const workMemory = e.memories.add({ content: 'Work space memory about Kafka topics', space: 'work' }).id;

  const ruleGlobal = (await e.rules.add({ body: 'Run the tests before every commit', priority: 5 })).id;
  const ruleWork = (await e.rules.add({ body: 'Work repos use conventional commits', scope: 'space:work' }))
    .id;
  await e.rules.add({ body: 'Codex: prefer small diffs', scope: 'agent:codex', enabled: false });

  e.skills.add({ content: SKILL_V1 });
  e.skills.update('deploy-app', { content: SKILL_V2, note: 'safer steps' });
  e.skills.addEvidence(
    'deploy-app',
    [`tapedeck://memory/${memory}`, `tapedeck://thread/${saved.thread_id}#1`],
    {
      note: 'why',
    },
  );
  e.skills.defineTest('deploy-app', 'smoke', 'the site answers 200 after deploy');
  e.skills.recordCheck('deploy-app', 'smoke', 'failed', { note: 'first try' });
  e.skills.recordCheck('deploy-app', 'smoke', 'passed');
  e.skills.recordOutcome('deploy-app', 'completed', { note: 'went fine' });
  e.skills.recordOutcome('deploy-app', 'completed_with_deviation', { version: 1 });
  const p = e.skills.propose({
    name: 'deploy-app',
    description: 'Deploy the shop (proposal)',
    body: '\nProposed body\n',
  });
  e.skills.reject('deploy-app', p.proposal!);
  e.skills.propose({
    name: 'deploy-app',
    description: 'Deploy the shop (pending)',
    body: '\nPending body\n',
  });
  e.skills.add({ name: 'old-skill', description: 'An archived skill', body: 'Old', stage: 'archived' });
  e.skills.add({ name: 'work-skill', description: 'A skill of the work space', body: 'Work', space: 'work' });

  await e.wiki.write('architecture/payments.md', '# Payments\n\nWebhooks go through the queue.\n');
  await e.wiki.write(
    'architecture/payments.md',
    '# Payments\n\nWebhooks go through the queue; retries use backoff.\n',
  );
  await e.wiki.write('runbooks/deploy.md', '# Deploy runbook\n\nSee the deploy-app skill.\n');
  await e.wiki.write('scratch.md', '# Scratch\n\nTemporary.\n');
  await e.wiki.remove('scratch.md');
  await e.wiki.write('notes.md', '# Work notes\n', { space: 'work' });

  await e.workingMemory.edit({
    section: 'open-loops',
    text: '- migrate the invoices table <tapedeck://thread/chat-42#2>',
  });

  return {
    threadId: saved.thread_id,
    memory,
    superseded,
    successor,
    forgotten,
    workMemory,
    ruleGlobal,
    ruleWork,
  };
}
