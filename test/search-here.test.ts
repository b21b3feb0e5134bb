/**
 * A search asked from inside a project (the shell's or the agent's working folder) ranks that
 * project's sessions first, through the real CLI; a search from elsewhere does not, and the other
 * project's hits still show: a prior, not a filter.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { tapedeck } from './support/cli.js';
import { claudeLine, tempHome } from './support/home.js';

test('tapedeck search from inside a project ranks its sessions first, and still shows the others', (t) => {
  const h = tempHome();
  t.after(h.cleanup);
  const dirs = { tide: join(h.home, 'code', 'tidewatch'), ledger: join(h.home, 'code', 'ledgerly') };
  let n = 0;
  for (const dir of Object.values(dirs)) {
    mkdirSync(join(dir, 'src'), { recursive: true });
    const id = `00000000-0000-4000-8000-00000000aa0${n++}`;
    const line = (role: 'user' | 'assistant', text: string) =>
      JSON.stringify({ ...JSON.parse(claudeLine(id, role, text)), cwd: dir });
    h.write(
      `.claude/projects/${dir.replace(/[/.]/g, '-')}/${id}.jsonl`,
      `${[
        line('user', 'the retry helper sleeps a fixed interval, can we fix it?'),
        line('assistant', 'Fixed: the retry helper now backs off exponentially.'),
      ].join('\n')}\n`,
    );
  }
  assert.equal(tapedeck(['index'], h.env).status, 0);
  const projects = (cwd: string) => {
    const r = tapedeck(['search', 'what did we fix in the retry helper?', '--json', '--explain'], h.env, {
      cwd,
    });
    assert.equal(r.status, 0, r.stderr);
    const hits = r.json().hits as { project: string; explain: { project: number } }[];
    assert.equal(new Set(hits.map((x) => x.project)).size, 2, 'both projects still show');
    return hits.map((x) => [x.project, x.explain.project > 0]);
  };
  const fromLedger = projects(join(dirs.ledger, 'src'));
  assert.deepEqual(fromLedger[0], [dirs.ledger, true]);
  assert.ok(fromLedger.every(([p, prior]) => prior === (p === dirs.ledger)));
  assert.deepEqual(projects(dirs.tide)[0], [dirs.tide, true]);
  assert.ok(
    projects(h.home).every(([, prior]) => prior === false),
    'no prior from outside every project',
  );
});
