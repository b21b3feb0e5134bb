/**
 * MCP search round trip over stdio on a kept store: a real MCP client starts `tapedeck mcp` as a
 * child process and calls `recall` (`in: 'sessions'`: transcript search) with every planted
 * question of a generated corpus, after a warming pass; the time is the client's, from request to
 * parsed answer. With `--base <repo root>` the same calls go, round by round, to a second server
 * built from another checkout (its bin/tapedeck.js and dist/, on a copy of the store made with
 * `--base-db`): the machine is shared and noisy, so compare the ratio from the same run.
 *
 *   node --import tsx bench/mcp-search.ts --corpus <dir> --db <file> [--rounds 3]
 *     [--base <root> --base-db <file>]
 * The build must be current (`npm run build`): bin/tapedeck.js loads dist/.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { QuestionRecord } from './generate.js';
import { percentile, round } from './stats.js';

const { values } = parseArgs({
  options: {
    corpus: { type: 'string' },
    db: { type: 'string' },
    rounds: { type: 'string', default: '3' },
    base: { type: 'string' },
    'base-db': { type: 'string' },
  },
});
if (!values.corpus || !values.db || (values.base && !values['base-db'])) {
  process.stderr.write('usage: mcp-search.ts --corpus <dir> --db <file> [--base <root> --base-db <file>]\n');
  process.exit(2);
}
const questions = readFileSync(join(values.corpus, 'questions.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => (JSON.parse(l) as QuestionRecord).question);

/**
 * The server's CPU time so far in ms (user + system, from /proc: Linux only; NaN elsewhere). On a
 * shared machine the wall time of a round trip is mostly waiting for a core; the server's CPU per
 * call is the figure that does not depend on the load.
 */
function serverCpuMs(pid: number | null): number {
  const stat = `/proc/${pid}/stat`;
  if (!pid || !existsSync(stat)) return Number.NaN;
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
  const f = readFileSync(stat, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(f[11]) + Number(f[12])) * 1000) / 100; // USER_HZ is 100 on Linux
}

async function server(root: string, db: string): Promise<{ client: Client; pid: number | null }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(root, 'bin', 'tapedeck.js'), 'mcp', '--db', db],
    env: { HOME: values.corpus!, PATH: process.env.PATH ?? '' },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(transport);
  return { client, pid: transport.pid };
}

/** One pass over the questions; each call's round trip in ms. */
async function pass(client: Client): Promise<number[]> {
  const times: number[] = [];
  for (const query of questions) {
    const t = performance.now();
    const r = await client.callTool({ name: 'recall', arguments: { query, in: 'sessions' } });
    times.push(performance.now() - t);
    if (r.isError) throw new Error(`recall failed: ${JSON.stringify(r.content)}`);
  }
  return times;
}

const systems: { name: string; client: Client; pid: number | null; times: number[]; cpu: number }[] = [
  { name: 'this build', ...(await server(join(import.meta.dirname, '..'), values.db)), times: [], cpu: 0 },
];
if (values.base)
  systems.push({
    name: `base (${values.base})`,
    ...(await server(values.base, values['base-db']!)),
    times: [],
    cpu: 0,
  });
for (const s of systems) await pass(s.client); // warming: statements, caches, page cache
for (let r = 0; r < Math.max(1, Number(values.rounds)); r++)
  for (const s of r % 2 ? [...systems].reverse() : systems) {
    const c0 = serverCpuMs(s.pid);
    s.times.push(...(await pass(s.client)));
    s.cpu += serverCpuMs(s.pid) - c0;
  }
const p50 = (t: number[]) => round(percentile(t, 50));
for (const s of systems)
  process.stdout.write(
    `${s.name}: MCP recall round trip over stdio, ${s.times.length} calls: p50 ${p50(s.times)} ms p99 ${round(percentile(s.times, 99))} ms (goal p50 <= 5 ms at 100k steps); server CPU ${round(s.cpu / s.times.length)} ms a call (mean)\n`,
  );
if (systems.length === 2)
  process.stdout.write(
    `ratio this/base: p50 ${round(p50(systems[0]!.times) / p50(systems[1]!.times))}, server CPU ${round(systems[0]!.cpu / systems[1]!.cpu)}\n`,
  );
for (const s of systems) await s.client.close();
