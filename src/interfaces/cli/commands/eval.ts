/** `tapedeck eval QUESTIONS.jsonl`: the retrieval scorecard (docs/eval.md). */
import { createEngineEval, type EvalReport, type System } from '../../../app/eval.js';
import { parseQuestionFile } from '../../../core/scorecard.js';
import type { GlobalFlags } from '../context.js';
import { openEngine } from '../context.js';
import { print, printJson } from '../output.js';
import { readText } from './read-text.js';
import { refreshQuietly } from './search.js';

export interface EvalFlags extends GlobalFlags {
  compare?: boolean;
  limitKinds?: string[];
  details?: boolean;
  /** Skip the incremental index pass before scoring. */
  index?: boolean;
  /** `--no-expand`: Tapedeck without query expansion. */
  expand?: boolean;
  /** `--no-meaning`: Tapedeck by words alone, even where steps have meaning vectors. */
  meaning?: boolean;
}

const LABEL: Record<System, string> = { tapedeck: 'tapedeck', bm25_or: 'bm25-or', and: 'and' };
const COLUMNS = ['hit@1', 'hit@5', 'hit@10', 'recall@10', 'session@1', 'MRR', 'p50 ms', 'p99 ms'];

/** The scorecard as a fixed-width table: one row per kind and system, then the overall rows. */
export function formatEval(r: EvalReport): string {
  const kindWidth = Math.max(7, ...Object.keys(r.kinds).map((k) => k.length));
  const head = `${'kind'.padEnd(kindWidth)}  ${'n'.padStart(4)}  ${'system'.padEnd(8)}  ${COLUMNS.map((c) => c.padStart(9)).join(' ')}`;
  const lines = [
    `${r.questions} questions over ${r.steps} steps (${r.backend})`,
    '',
    head,
    '-'.repeat(head.length),
  ];
  const rows = (name: string, bySystem: EvalReport['overall']) =>
    r.systems.forEach((s, i) => {
      const m = bySystem[s];
      if (!m) return;
      const cells = [m.hit_at_1, m.hit_at_5, m.hit_at_10, m.recall_at_10, m.session_hit_at_1, m.mrr]
        .map((x) => x.toFixed(3))
        .concat([m.p50_ms.toFixed(2), m.p99_ms.toFixed(2)]);
      const label = i === 0 ? name.padEnd(kindWidth) : ''.padEnd(kindWidth);
      const n = i === 0 ? String(m.questions).padStart(4) : ''.padStart(4);
      lines.push(`${label}  ${n}  ${LABEL[s].padEnd(8)}  ${cells.map((c) => c.padStart(9)).join(' ')}`);
    });
  for (const [kind, bySystem] of Object.entries(r.kinds)) rows(kind, bySystem);
  if (Object.keys(r.kinds).length > 1) rows('overall', r.overall);
  if (r.unknown_evidence.length > 0)
    lines.push(
      '',
      `${r.unknown_evidence.length} question(s) name evidence that is not indexed (counted as misses): ${r.unknown_evidence.slice(0, 5).join(', ')}${r.unknown_evidence.length > 5 ? ', …' : ''}`,
    );
  if (r.errors.length > 0)
    lines.push(
      '',
      `${r.errors.length} question(s) were refused by search (counted as misses): ${r.errors
        .slice(0, 3)
        .map((e) => `${e.id} (${e.message})`)
        .join(', ')}${r.errors.length > 3 ? ', …' : ''}`,
    );
  return lines.join('\n');
}

/** `tapedeck eval FILE`: read the questions, refresh the index, score, print the table or the JSON report. */
export async function runEval(file: string, flags: EvalFlags): Promise<void> {
  const questions = parseQuestionFile(readText(file));
  const kinds = (flags.limitKinds ?? [])
    .flatMap((k) => k.split(','))
    .map((k) => k.trim())
    .filter(Boolean);
  // The scorecard measures this machine's store and search path, never a remote server's.
  const engine = openEngine(flags, { local: true });
  try {
    if (flags.index !== false) refreshQuietly(engine);
    const report = await createEngineEval(engine).run(questions, {
      compare: !!flags.compare,
      kinds,
      details: !!flags.details,
      expand: flags.expand !== false,
      meaning: flags.meaning !== false,
    });
    if (flags.json) printJson(report);
    else print(formatEval(report));
  } finally {
    engine.close();
  }
}
