/**
 * Who said it, from the question: "what did I ask…", "my …" point at the user's steps; "what did
 * you suggest…", "your recommendation" at the assistant's; a person's name ("what did Maria say
 * about…") at steps that person speaks (a transcript line starting "Maria:"). Search turns this
 * into a prior (a boost), never a filter.
 */

import { MONTHS, WEEKDAYS } from './question-dates.js';

export interface RoleCue {
  /** The role the question asks about, if any. */
  role?: 'user' | 'assistant';
  /** 1 for a clear cue ("what did I say"), less for a hint ("my car"). */
  strength: number;
  /** Names of people the question mentions (capitalised words that are not sentence starts). */
  names: string[];
  /** The cue's words ("did I ask"): they say who, not what, and are not searched as words. */
  cueText?: string;
}

const SAY =
  '(?:ask|asked|say|said|tell|told|mention|mentioned|share|shared|write|wrote|type|typed|request|requested|want|wanted|need|needed|propose|proposed|suggest|suggested|describe|described|explain|explained|note|noted|complain|complained|report|reported)';
const DO =
  '(?:recommend|recommended|advise|advised|give|gave|provide|provided|change|changed|fix|fixed|implement|implemented|add|added|use|used|run|ran|find|found|decide|decided|come up with|point out|pointed out|warn|warned)';
// "did I ask", "have I mentioned": the verb says who spoke, not what about ("support keeps
// asking…" is not the answer), so it is part of the cue and not searched as a word.
const USER_STRONG = new RegExp(
  `\\b(?:i|i've|i'd)\\s+(?:\\w+\\s+)?(?:${SAY}|${DO})\\b|\\b(?:did|have|had|was|am|do)\\s+i(?:\\s+(?:${SAY}))?\\b`,
);
const ASSISTANT_STRONG = new RegExp(
  `\\byou\\s+(?:\\w+\\s+)?(?:${SAY}|${DO})\\b|\\b(?:did|have|had|were|do|would|could)\\s+you\\b|\\byour\\s+(?:suggestion|recommendation|advice|answer|reply|explanation|proposal|idea|fix|plan)s?\\b`,
);
const USER_WEAK = /\b(?:my|mine|me)\b/;
const NAMED_SAY = new RegExp(`\\b(?:did|has|had)\\s+(\\p{Lu}\\p{Ll}+)\\s+(${SAY})\\b`, 'u');
const NOT_NAMES = new Set([
  'I',
  'What',
  'When',
  'Where',
  'Which',
  'Who',
  'Why',
  'How',
  'Did',
  'Do',
  'Does',
  'Is',
  'Are',
  'Was',
  'Were',
  'Can',
  'Could',
  'Would',
  'Should',
  'The',
  'A',
  'An',
  'In',
  'On',
  'At',
  'Last',
  'This',
  'Tell',
  'Remind',
  // Capitalised calendar words are not people either.
  ...[...MONTHS, ...WEEKDAYS].map((w) => w[0]!.toUpperCase() + w.slice(1)),
]);

/** The role and speaker cues of a question. */
export function roleCue(question: string): RoleCue {
  const q = question.toLowerCase().replace(/[’]/g, "'");
  // Each strong cue needs its pronoun: without it the long patterns are not compiled or run.
  const user = /\bi\b/.test(q) ? USER_STRONG.exec(q) : null;
  const assistant = q.includes('you') ? ASSISTANT_STRONG.exec(q) : null;
  let role: RoleCue['role'];
  let strength = 0;
  // Both: the earlier cue is the question's subject ("what did I ask you to change").
  let cueText: string | undefined;
  if (user && (!assistant || user.index <= assistant.index)) {
    [role, strength] = ['user', 1];
    cueText = question.slice(user.index, user.index + user[0].length);
  } else if (assistant) [role, strength] = ['assistant', 1];
  else if (USER_WEAK.test(q)) [role, strength] = ['user', 0.5];
  const names = new Set<string>();
  // A name is a capital after the first character: a question with none has no names (and skips
  // the Unicode pattern, the costliest of a one-question process to compile).
  const rest = question.slice(1);
  if (rest !== rest.toLowerCase())
    for (const m of question.matchAll(/(?<=[\p{L}\p{N},;:]\s+)(\p{Lu}[\p{Ll}]+)(?:'s)?\b/gu)) {
      const name = m[1]!;
      if (!NOT_NAMES.has(name)) names.add(name);
    }
  // "What did Nils suggest…", "did Maria tell…": as for "did I ask", the verb says who spoke (the
  // speaker prior's job), and searched as a word it finds every "I'd suggest" of other sessions.
  if (!cueText && names.size > 0) {
    const named = NAMED_SAY.exec(question);
    if (named && names.has(named[1]!)) cueText = named[2];
  }
  return { role, strength, names: [...names], ...(cueText ? { cueText } : {}) };
}

/**
 * Whether a step's text is spoken by one of `names` ("Maria: …", "[Maria] …", "Maria said: …").
 * "Maria says the export is broken" is someone else reporting her: not her turn.
 */
export function spokenBy(text: string, names: readonly string[]): boolean {
  if (names.length === 0) return false;
  const head = text.slice(0, 60).toLowerCase();
  return names.some((n) => {
    const l = n.toLowerCase();
    const i = head.indexOf(l);
    if (i < 0 || i > 4) return false;
    const after = head.slice(i + l.length, i + l.length + 7);
    return /^\s*(?::|\]|\)|\s+(?:said|says|wrote)\s*:)/.test(after);
  });
}

const GREETING =
  '(?:hi|hey|hello|thanks|thank you|oh|wow|congrats|congratulations|sorry|morning|good morning|aw|goodnight|good night|night|bye|see you|cheers|welcome back)';
/**
 * After a greeting, a name followed by a verb is the subject of a report, not the one spoken to:
 * "hey, Fatima says the export is broken" speaks to the assistant about Fatima.
 */
const NOT_REPORTED =
  '(?!\\s+(?:says|said|asks|asked|wants|wanted|thinks|thought|told|tells|mentioned|reported|wrote|is|was|has|had|will|would|can|could)\\b)';

/**
 * A function that blanks each place a text speaks *to* one of `names` ("Hey Nils!", "Thanks,
 * Mei.", "Nils! Guess what"): there the name says who is spoken to, not what about, and in a
 * conversation between two people it is in nearly every turn, so it must not count as the
 * question's word.
 */
export function vocativeBlanker(names: readonly string[]): (text: string) => string {
  if (names.length === 0) return (t) => t;
  const alt = names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  const re = new RegExp(
    `\\b(${GREETING}\\W+)(?:${alt})\\b${NOT_REPORTED}|(,\\s*)(?:${alt})(?=\\s*[!.?,])|^(\\W*)(?:${alt})(?=\\s*[,!?])`,
    'gi',
  );
  return (t) =>
    t.replace(re, (_m, greeting?: string, comma?: string, lead?: string) => greeting ?? comma ?? lead ?? '');
}

/**
 * Whether a step speaks to one of `names` ("Hi Maria!", "Maria, can you…", "Thanks, Maria."): in
 * a two-person conversation the name is then the other speaker, which tells who `names` speaks
 * as. A name opening a sentence without a greeting or a vocative comma ("Maria says the export
 * is broken", "Maria reviewed it") is a mention, not a greeting: work sessions mention colleagues
 * who are someone else's conversation partner.
 */
export function addresses(text: string, names: readonly string[]): boolean {
  if (names.length === 0) return false;
  const head = text.slice(0, 80);
  return names.some((n) => nameTest(ADDRESS, n).test(head));
}

/**
 * Whether a step's text opens with one of `names` as its subject ("Lucia has started swimming",
 * "Marcus says the export is broken"): a person talked about, not spoken to. Where nobody speaks
 * to or as a named person (a child, a friend of the two who talk), this says where they are
 * discussed; for a person who is spoken to somewhere it says nothing (work sessions mention the
 * colleague who is someone else's conversation partner).
 */
export function opensWith(text: string, names: readonly string[]): boolean {
  if (names.length === 0) return false;
  const head = text.slice(0, 40);
  return names.some((n) => nameTest(OPENING, n).test(head));
}

/** How a step speaks to a name `N` (see `addresses`) and how it opens with one (`opensWith`). */
const ADDRESS = (n: string) =>
  `^\\W*(?:${GREETING}\\W+${n}\\b${NOT_REPORTED}|${n}\\s*[,!:;?\\u2013\\u2014-])|,\\s*${n}\\s*[!.?,]`;
const OPENING = (n: string) => `^\\W*${n}\\b`;

/**
 * The pattern for one name, compiled once per process: the ranking asks it of every candidate
 * step, and compiling a RegExp per step was a visible share of a search.
 */
const compiled = new Map<string, RegExp>();
function nameTest(pattern: (n: string) => string, name: string): RegExp {
  // Names come from the question; escaped so a stray symbol cannot change the pattern.
  const source = pattern(name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  let re = compiled.get(source);
  if (!re) {
    if (compiled.size > 2000) compiled.clear();
    re = new RegExp(source, 'i');
    compiled.set(source, re);
  }
  return re;
}
