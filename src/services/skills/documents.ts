/**
 * Turning what a caller gives (a whole SKILL.md, or fields) into a validated, redacted document,
 * and applying a change to an existing skill. Errors are INVALID_INPUT naming the problem.
 */
import { invalidInput } from '../../core/errors.js';
import { redact } from '../../core/redact.js';
import {
  parseSkillMd,
  type SkillDocument,
  skillDescriptionProblem,
  skillHead,
  skillNameProblem,
  withDescription,
} from '../../core/skill.js';
import type { SkillRow } from '../../ports/skills-store.js';
import type { SpaceScope } from './views.js';

/** A skill given as a whole SKILL.md (`content`) or as fields. */
export interface SkillInput extends SpaceScope {
  content?: string;
  /** Where `content` came from (a file path), named in error messages. */
  source?: string;
  name?: string;
  description?: string;
  body?: string;
  /** Why this version exists (kept with the version). */
  note?: string;
}

export const MAX_NOTE = 2000;
const MAX_TEST_NAME = 120;

export function cleanNote(note: string | undefined, what = 'note'): string | null {
  if (note === undefined || note.trim() === '') return null;
  if (note.length > MAX_NOTE) throw invalidInput(`The ${what} is over ${MAX_NOTE} characters`);
  return redact(note.trim()).text;
}

export function checkBody(body: string, where: string): void {
  if (body.trim() === '')
    throw invalidInput(`${where}: the body is empty; write the instructions below the front matter`);
}

/** A body given as a field starts on its own line after the front matter, as skill files do. */
const fieldBody = (body: string) => (body.startsWith('\n') || body.startsWith('\r\n') ? body : `\n${body}`);

/** Redact, parse and validate a whole SKILL.md. */
export function docFromText(text: string, where: string): SkillDocument & { redactions: number } {
  if (typeof text !== 'string' || text.trim() === '') throw invalidInput(`${where}: the file is empty`);
  const r = redact(text);
  const doc = parseSkillMd(r.text, where);
  checkBody(doc.body, where);
  return { ...doc, redactions: r.redactions };
}

/** A new skill from fields: Tapedeck writes the front matter. */
export function docFromFields(
  name: string,
  description: string,
  body: string,
): SkillDocument & { redactions: number } {
  const nameProblem = skillNameProblem(name);
  if (nameProblem) throw invalidInput(nameProblem);
  const d = redact(description.trim());
  const descProblem = skillDescriptionProblem(d.text);
  if (descProblem) throw invalidInput(descProblem);
  const b = redact(body);
  checkBody(b.text, name);
  return {
    name,
    description: d.text,
    head: skillHead(name, d.text),
    body: fieldBody(b.text),
    redactions: d.redactions + b.redactions,
  };
}

/** The new head and body of an existing skill given a change, or null when nothing changes. */
export function applyChange(
  cur: SkillRow,
  input: SkillInput,
): { doc: SkillDocument; redactions: number } | null {
  if (input.content !== undefined) {
    const doc = docFromText(input.content, input.source ?? `SKILL.md for ${cur.name}`);
    if (doc.name !== cur.name)
      throw invalidInput(
        `The front matter names "${doc.name}" but the skill is "${cur.name}"; skills cannot be renamed`,
      );
    return doc.head === cur.head && doc.body === cur.body ? null : { doc, redactions: doc.redactions };
  }
  let head = cur.head;
  let body = cur.body;
  let description = cur.description;
  let redactions = 0;
  if (input.description !== undefined) {
    const d = redact(input.description.trim());
    const problem = skillDescriptionProblem(d.text);
    if (problem) throw invalidInput(problem);
    description = d.text;
    redactions += d.redactions;
    if (description !== cur.description) head = withDescription(cur.head, description);
  }
  if (input.body !== undefined) {
    const b = redact(input.body);
    checkBody(b.text, cur.name);
    body = fieldBody(b.text);
    redactions += b.redactions;
  }
  if (head === cur.head && body === cur.body) return null;
  // Re-read what will be stored, so a rewritten head is still a valid SKILL.md.
  const doc = parseSkillMd(head + body, `SKILL.md for ${cur.name}`);
  return { doc: { ...doc, description }, redactions };
}

export function checkTestName(test: string): string {
  const t = typeof test === 'string' ? test.trim() : '';
  if (t === '') throw invalidInput('The test case needs a name');
  if (t.length > MAX_TEST_NAME || /[\r\n]/.test(t))
    throw invalidInput(`A test case name is one line of at most ${MAX_TEST_NAME} characters`);
  return t;
}
