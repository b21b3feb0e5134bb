/**
 * What the MCP surface costs an agent: the tool count and the size of the `tools/list` result
 * (the JSON every session pays before its first call), lean and full; and what a search hit costs
 * in tokens (the repo's counter, core/token-budget.ts), over every planted question of a generated
 * corpus through a real MCP client calling `recall`. The baseline in the same run renders the
 * same hits the way `search_conversations` did before (one `[n] thread#step role/kind date project
 * — title` head per hit, then the whole snippet).
 *
 *   node --import tsx bench/mcp-surface.ts [--steps 10000] [--seed 1]
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { loadConfig } from '../src/app/config.js';
import { createEngine, type Engine } from '../src/app/engine.js';
import { estimateTokens } from '../src/core/token-budget.js';
import { buildMcpServer } from '../src/interfaces/mcp/server.js';
import type { SearchHit } from '../src/services/transcripts.js';
import { generateCorpus, type QuestionRecord } from './generate.js';
import { percentile, round } from './stats.js';

const { values } = parseArgs({
  options: { steps: { type: 'string', default: '10000' }, seed: { type: 'string', default: '1' } },
});
const log = (m: string) => process.stderr.write(`[mcp-surface] ${m}\n`);

async function connect(engine: Engine, tools: 'lean' | 'full') {
  const server = buildMcpServer({ engine, refreshMs: 0, tools });
  const [a, b] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'bench', version: '1' });
  await Promise.all([server.connect(a), client.connect(b)]);
  return client;
}

/** The previous rendering of the same hits (the baseline). */
function before(hits: SearchHit[]): string {
  const base = (p: string | null) => (p ? (p.split('/').filter(Boolean).at(-1) ?? p) : '?');
  const lines = hits.map(
    (h, i) =>
      `[${i + 1}] ${h.thread}#${h.step} ${h.role}/${h.kind} ${(h.timestamp ?? '?').slice(0, 10)} ${base(h.project)} — ${h.title ?? ''}\n${h.snippet}`,
  );
  lines.push('(get_steps with thread and step shows the surrounding steps)');
  return lines.join('\n');
}

const root = mkdtempSync(join(tmpdir(), 'tapedeck-mcp-surface-'));
try {
  const dir = join(root, 'corpus');
  log(`generating ${values.steps} steps…`);
  await generateCorpus({ out: dir, steps: Number(values.steps), seed: Number(values.seed) });
  const questions = readFileSync(join(dir, 'questions.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as QuestionRecord);
  const engine = createEngine(loadConfig({ db: join(root, 'bench.db') }, { HOME: dir }));
  engine.transcripts.index();

  const rows: string[] = [];
  for (const set of ['lean', 'full'] as const) {
    const client = await connect(engine, set);
    const listing = await client.listTools();
    const chars = JSON.stringify(listing).length;
    rows.push(
      `| tools/list, ${set} | ${listing.tools.length} tools, ${chars.toLocaleString('en-US')} chars (~${estimateTokens(JSON.stringify(listing)).toLocaleString('en-US')} tokens) |`,
    );
    if (set === 'lean') for (const t of listing.tools) log(`  ${t.name}: ${JSON.stringify(t).length} chars`);
    await client.close();
  }

  const client = await connect(engine, 'lean');
  const line: number[] = [];
  let leanTokens = 0;
  let beforeTokens = 0;
  let hits = 0;
  for (const q of questions) {
    const r = (await client.callTool({
      name: 'recall',
      arguments: { query: q.question, in: 'sessions' },
    })) as {
      content: { text: string }[];
    };
    const text = r.content[0].text;
    for (const l of text.split('\n')) if (l.startsWith('- tapedeck://')) line.push(estimateTokens(l));
    const same = await engine.transcripts.search(q.question, { limit: 8 });
    hits += same.hits.length;
    leanTokens += estimateTokens(text);
    beforeTokens += same.hits.length ? estimateTokens(before(same.hits)) : 0;
  }
  await client.close();
  engine.close();
  rows.push(
    `| tokens per hit line (${line.length} hits, ${questions.length} questions) | max ${Math.max(...line)}, p95 ${round(percentile(line, 95))}, mean ${round(line.reduce((a, b) => a + b, 0) / line.length)} |`,
    `| tokens per hit, answer total / hits (thread heads included) | ${round(leanTokens / hits)} (before: ${round(beforeTokens / hits)}, ×${round(beforeTokens / leanTokens)}) |`,
  );
  console.log(
    `| measure (${values.steps}-step corpus, seed ${values.seed}) | figure |\n|---|---|\n${rows.join('\n')}`,
  );
} finally {
  rmSync(root, { recursive: true, force: true });
}
