/**
 * The eval corpus: the benchmark corpus (four agents' real file shapes) as background, plus
 * planted Claude Code sessions for each question set, under a fake HOME. Writes one JSONL
 * question file per kind; one seed always gives the same bytes, another seed other data.
 *
 *   node --import tsx bench/eval/generate.ts --out DIR [--sets DIR] [--seed S] [--background N]
 *
 * eval/sets/*.jsonl are this generator's output for seed 1 (`npm run eval -- --write-sets`).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { hashSeed } from '../corpus/prng.js';
import { createWorld } from '../corpus/world.js';
import { generateCorpus } from '../generate.js';
import { Corpus, type QuestionLine } from './builder.js';
import { conversationSet } from './chat-kinds.js';
import { codingSet } from './coding-kinds.js';
import { typedSet } from './typed-kind.js';
import { answerAfterSet, datedSet, identifierSet, paraphraseSet, whoSaidSet } from './work-kinds.js';

export interface EvalCorpusOptions {
  /** The fake HOME (must be empty or missing). */
  out: string;
  /** Where the question files go (default `<out>/../sets`). */
  sets?: string;
  seed?: number;
  /** Steps of background sessions from the benchmark generator. */
  background?: number;
}

export interface EvalCorpusSummary {
  seed: number;
  background: number;
  plantedSessions: number;
  files: number;
  /** kind → question file. */
  sets: Record<string, string>;
  questions: Record<string, number>;
}

/** The sets, in the order they are reported. */
export const KINDS = [
  'paraphrase',
  'answer-after',
  'dated',
  'who-said-it',
  'identifier',
  'conversation',
  'coding',
  'typed',
] as const;

export const SHIPPED_SEED = 1;

/** Serialize one set the way it is shipped. */
export function setText(lines: readonly QuestionLine[]): string {
  return lines.map((l) => JSON.stringify(l)).join('\n') + (lines.length ? '\n' : '');
}

/** Generate the corpus into `out` and the question files into `sets`. */
export async function generateEvalCorpus(opts: EvalCorpusOptions): Promise<EvalCorpusSummary> {
  const out = resolve(opts.out);
  const setsDir = resolve(opts.sets ?? join(out, '..', 'sets'));
  const seed = (opts.seed ?? SHIPPED_SEED) >>> 0;
  const background = Math.max(1000, Math.floor(opts.background ?? 20_000));
  const manifest = await generateCorpus({ out, steps: background, seed, questions: 0 });
  // The planted facts live in the background's own projects, so its sessions share their words.
  const projects = createWorld(hashSeed(seed, 'world'), manifest.projects);

  const c = new Corpus(seed);
  paraphraseSet(c, projects, 72);
  answerAfterSet(c, projects, 72);
  datedSet(c, projects, 70);
  whoSaidSet(c, projects, 72);
  identifierSet(c, projects, 72);
  conversationSet(c, projects, 8, 16);
  codingSet(c, projects, 12);
  const { files, sets } = c.render();
  // Derived from the other kinds' lines (its own random stream: they stay byte for byte).
  sets.set('typed', typedSet(sets, seed, 72));
  for (const f of files) {
    const abs = join(out, f.rel);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, f.data);
  }
  mkdirSync(setsDir, { recursive: true });
  const summary: EvalCorpusSummary = {
    seed,
    background,
    plantedSessions: c.builders.length,
    files: files.length,
    sets: {},
    questions: {},
  };
  for (const kind of KINDS) {
    const lines = sets.get(kind) ?? [];
    const file = join(setsDir, `${kind}.jsonl`);
    writeFileSync(file, setText(lines));
    summary.sets[kind] = file;
    summary.questions[kind] = lines.length;
  }
  return summary;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      out: { type: 'string' },
      sets: { type: 'string' },
      seed: { type: 'string' },
      background: { type: 'string' },
    },
  });
  if (!values.out) {
    process.stderr.write(
      'usage: node --import tsx bench/eval/generate.ts --out DIR [--sets DIR] [--seed S] [--background N]\n',
    );
    process.exitCode = 2;
    return;
  }
  const s = await generateEvalCorpus({
    out: values.out,
    sets: values.sets,
    seed: values.seed === undefined ? undefined : Number(values.seed),
    background: values.background === undefined ? undefined : Number(values.background),
  });
  process.stderr.write(
    `eval corpus: seed ${s.seed}, ${s.background} background steps, ${s.plantedSessions} planted sessions; ${Object.entries(
      s.questions,
    )
      .map(([k, n]) => `${k} ${n}`)
      .join(', ')}\n`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((e: unknown) => {
    process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
    process.exitCode = 1;
  });
}
