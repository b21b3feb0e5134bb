/**
 * Skills as data: what a valid SKILL.md is, how a new one is written, and the trust badge. Pure
 * logic shared by the skills service and anything that renders skills (fs, context bundle).
 */
import { invalidInput } from './errors.js';
import { parseFrontMatter, replaceHeadScalar, yamlScalar } from './front-matter.js';

export const SKILL_STAGES = ['draft', 'active', 'archived'] as const;
export type SkillStage = (typeof SKILL_STAGES)[number];

export const SKILL_OUTCOMES = ['completed', 'completed_with_deviation', 'failed', 'abandoned'] as const;
export type SkillOutcome = (typeof SKILL_OUTCOMES)[number];

export type SkillBadge = 'Draft' | 'Checked' | 'Proven';

export const MAX_SKILL_NAME = 64;
export const MAX_SKILL_DESCRIPTION = 1024;
/** A SKILL.md larger than this is almost certainly not a skill (or has a data file pasted in). */
export const MAX_SKILL_BYTES = 256 * 1024;

const NAME_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const isSkillStage = (s: string): s is SkillStage => (SKILL_STAGES as readonly string[]).includes(s);
export const isSkillOutcome = (s: string): s is SkillOutcome =>
  (SKILL_OUTCOMES as readonly string[]).includes(s);

/** The reason a skill name is invalid, or null when it is fine. */
export function skillNameProblem(name: string): string | null {
  if (name.length === 0) return 'the name is empty';
  if (name.length > MAX_SKILL_NAME) return `the name is ${name.length} characters; at most ${MAX_SKILL_NAME}`;
  if (!NAME_RE.test(name))
    return `the name "${name}" is not kebab-case (lowercase letters and digits, single hyphens between words)`;
  return null;
}

export function assertSkillName(name: string, where = 'skill'): string {
  const problem = skillNameProblem(name);
  if (problem) throw invalidInput(`${where}: ${problem}`);
  return name;
}

/** The reason a description is invalid, or null. */
export function skillDescriptionProblem(description: string): string | null {
  if (description.trim() === '') return 'the description is empty; say in one line when to use the skill';
  if (/[\r\n]/.test(description)) return 'the description must be one line';
  if (description.length > MAX_SKILL_DESCRIPTION)
    return `the description is ${description.length} characters; at most ${MAX_SKILL_DESCRIPTION}`;
  return null;
}

export interface SkillDocument {
  name: string;
  description: string;
  /** Raw front matter, fences included: kept so the file renders back byte for byte. */
  head: string;
  body: string;
}

/** Parse and validate a whole SKILL.md. Errors are INVALID_INPUT naming `where` and the problem. */
export function parseSkillMd(text: string, where = 'SKILL.md'): SkillDocument {
  if (text.length > MAX_SKILL_BYTES)
    throw invalidInput(`${where}: the file is over ${MAX_SKILL_BYTES / 1024} KB`);
  const fm = parseFrontMatter(text, where);
  const name = fm.fields.name;
  const description = fm.fields.description;
  if (name === undefined || name === '')
    throw invalidInput(`${where}: the front matter has no "name:"`, { file: where });
  if (typeof name !== 'string')
    throw invalidInput(`${where}: "name" must be a single value`, { file: where });
  const nameProblem = skillNameProblem(name);
  if (nameProblem) throw invalidInput(`${where}: ${nameProblem}`, { file: where });
  if (description === undefined || description === '' || description === '~' || description === 'null')
    throw invalidInput(
      `${where}: the front matter has no "description:" (one line saying when to use the skill)`,
      {
        file: where,
      },
    );
  if (typeof description !== 'string')
    throw invalidInput(`${where}: "description" must be one line of text`, { file: where });
  const descProblem = skillDescriptionProblem(description);
  if (descProblem) throw invalidInput(`${where}: ${descProblem}`, { file: where });
  return { name, description, head: fm.head, body: fm.body };
}

/** The front matter Tapedeck writes for a skill created from fields rather than a file. */
export function skillHead(name: string, description: string): string {
  return `---\nname: ${name}\ndescription: ${yamlScalar(description)}\n---\n`;
}

/** A head with its description replaced, every other line kept as it was. */
export function withDescription(head: string, description: string): string {
  return replaceHeadScalar(head, 'description', description);
}

export const renderSkillMd = (doc: { head: string; body: string }): string => doc.head + doc.body;

/** What the badge is computed from: the record of the skill's current version. */
export interface TrustRecord {
  stage: SkillStage;
  /** Test cases whose latest result on the current version passed. */
  passedChecks: number;
  /** Outcomes `completed` reported on the current version. */
  successfulOutcomes: number;
  /** Evidence links (memories, thread steps) attached to the skill. */
  evidence: number;
}

/**
 * Draft: nothing passed yet. Checked: one passed check or success, or an active skill backed by
 * evidence. Proven: two or more passed checks and successful outcomes together.
 * `completed_with_deviation` is not a success: the skill as written was not enough.
 */
export function trustBadge(r: TrustRecord): SkillBadge {
  const wins = r.passedChecks + r.successfulOutcomes;
  if (wins >= 2) return 'Proven';
  if (wins === 1 || (r.stage === 'active' && r.evidence > 0)) return 'Checked';
  return 'Draft';
}

/** Evidence URIs: `tapedeck://memory/<id>` or `tapedeck://thread/<thread-id>#<step>`. */
export type EvidenceRef = { kind: 'memory'; id: string } | { kind: 'thread'; thread: string; step: number };

export function parseEvidenceUri(uri: string): EvidenceRef {
  const s = uri.trim();
  const mem = /^tapedeck:\/\/memory\/([^\s/#?]{1,200})$/.exec(s);
  if (mem) return { kind: 'memory', id: mem[1] };
  const th = /^tapedeck:\/\/thread\/([^\s#?]{1,300})#(\d{1,9})$/.exec(s);
  if (th) return { kind: 'thread', thread: th[1], step: Number(th[2]) };
  throw invalidInput(
    `"${uri}" is not an evidence link; use tapedeck://memory/<id> or tapedeck://thread/<thread-id>#<step>`,
  );
}

export const evidenceUri = (ref: EvidenceRef): string =>
  ref.kind === 'memory' ? `tapedeck://memory/${ref.id}` : `tapedeck://thread/${ref.thread}#${ref.step}`;
