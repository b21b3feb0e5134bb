/**
 * Suggesting skills for a workspace, without an LLM: what the workspace holds (build files, CI,
 * languages, recent commits — read elsewhere and given here as weighted signals) and the task
 * text are matched against each skill's name, description and body; every point a skill scores
 * comes with the reason that earned it.
 */
import { porterStem } from './porter.js';
import { STOP_WORDS } from './stopwords.js';

/** One thing the workspace shows, as the words a skill that fits it would use. */
export interface WorkspaceSignal {
  /** Words to look for in a skill (any one counts), e.g. ['docker', 'dockerfile', 'container']. */
  terms: string[];
  /** How much a match says about the fit (1 = a normal hint). */
  weight: number;
  /** Where it came from, said to the user: "Dockerfile", "package.json depends on prisma". */
  source: string;
}

export interface SuggestCandidate {
  name: string;
  description: string;
  body: string;
}

export interface Suggestion {
  name: string;
  score: number;
  /** Why it fits, strongest first: "Dockerfile (matched docker in its name)". */
  reasons: string[];
}

const FIELD = { name: 3, description: 2, body: 1 } as const;
const TASK_WEIGHT = 2;

/** Lower-case stems of a text's words. */
export function stems(text: string): Set<string> {
  const out = new Set<string>();
  for (const w of text.toLowerCase().split(/[^\p{L}\p{N}]+/u))
    if (w.length > 1 && !STOP_WORDS.has(w)) out.add(porterStem(w));
  return out;
}

type Field = keyof typeof FIELD;

/** The best field of a skill that holds one of the terms, with the term found. */
function bestField(
  fields: Record<Field, Set<string>>,
  terms: string[],
): { field: Field; term: string } | undefined {
  for (const field of ['name', 'description', 'body'] as const)
    for (const term of terms) {
      const s = porterStem(term.toLowerCase());
      if (fields[field].has(s)) return { field, term };
    }
  return undefined;
}

/**
 * Rank skills for a workspace and a task. A signal counts once per skill, in the best field it is
 * found in (name > description > body), times its weight; each task word counts the same way,
 * doubled (the task says what is about to happen). Skills that match nothing are left out.
 */
export function suggestSkills(
  skills: readonly SuggestCandidate[],
  signals: readonly WorkspaceSignal[],
  task = '',
): Suggestion[] {
  // Each task word once, by its stem, said back to the user as they wrote it.
  const taskWords = new Map<string, string>();
  for (const w of task.toLowerCase().split(/[^\p{L}\p{N}]+/u))
    if (w.length > 1 && !STOP_WORDS.has(w) && !taskWords.has(porterStem(w))) taskWords.set(porterStem(w), w);
  const out: Suggestion[] = [];
  for (const skill of skills) {
    const fields = {
      name: stems(skill.name.replace(/-/g, ' ')),
      description: stems(skill.description),
      body: stems(skill.body),
    };
    const scored: { points: number; reason: string }[] = [];
    for (const sig of signals) {
      const hit = bestField(fields, sig.terms);
      if (hit)
        scored.push({
          points: sig.weight * FIELD[hit.field],
          reason: `${sig.source} (matched "${hit.term}" in its ${hit.field})`,
        });
    }
    const taskHits = [...taskWords.keys()].filter(
      (w) => fields.name.has(w) || fields.description.has(w) || fields.body.has(w),
    );
    if (taskHits.length) {
      const points = taskHits.reduce(
        (sum, w) =>
          sum +
          TASK_WEIGHT *
            (fields.name.has(w) ? FIELD.name : fields.description.has(w) ? FIELD.description : FIELD.body),
        0,
      );
      scored.push({
        points,
        reason: `the task mentions ${taskHits.map((w) => `"${taskWords.get(w)}"`).join(', ')}`,
      });
    }
    if (!scored.length) continue;
    scored.sort((a, b) => b.points - a.points);
    out.push({
      name: skill.name,
      score: Math.round(scored.reduce((s, x) => s + x.points, 0) * 100) / 100,
      reasons: scored.map((x) => x.reason),
    });
  }
  return out.sort((a, b) => b.score - a.score || a.name.localeCompare(b.name));
}
