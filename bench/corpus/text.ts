/**
 * Developer prose and code from templates. A TextGen belongs to one session: it fills template
 * slots from the session's project (≈55% of domain words) and from the global Zipf-ordered lists.
 * Templates compile once at load into literal/slot arrays, so filling is plain concatenation.
 */
import {
  ADJECTIVES,
  ADVERBS,
  DOMAIN_NOUNS,
  ERROR_CODES,
  GENERAL_NOUNS,
  LIBRARIES,
  PEOPLE,
  PLURALS,
  TECH_NOUNS,
  VENDORS,
  VERBS,
} from './lexicon.js';
import type { Random } from './prng.js';
import {
  ASSISTANT,
  CODE,
  COMMITS,
  INTERIM,
  LOG_LINES,
  REASONING,
  REASONING_HEADINGS,
  RESPONSE_OPENERS,
  USER,
  USER_OPENERS,
} from './templates.js';
import { cap, identWord, type Project, pascal, pascalWord } from './world.js';

const SLOTS = [
  'n',
  'ns',
  't',
  'ts',
  'v',
  'vd',
  'vg',
  'v3',
  'a',
  'd',
  'g',
  'gs',
  'p',
  'tp',
  'dir',
  'f',
  'c',
  'k',
  'env',
  'e',
  'l',
  'cmd',
  'num',
  'big',
  'ms',
  'pct',
  'ver',
  'br',
  'person',
  'hash',
  'line',
  'vendor',
  'mod',
  'nv',
  'tv',
  'C',
  'F',
  'Vg',
  'ts8',
] as const;
export type SlotName = (typeof SLOTS)[number];
const SLOT_ID = new Map<string, number>(SLOTS.map((s, i) => [s, i]));

/** A compiled template: literals at even positions, slot ids at odd positions. */
export type Template = readonly (string | number)[];

export function compile(text: string): Template {
  const out: (string | number)[] = [];
  let last = 0;
  for (const m of text.matchAll(/\{(\w+)\}/g)) {
    const id = SLOT_ID.get(m[1]);
    if (id === undefined) continue;
    out.push(text.slice(last, m.index), id);
    last = (m.index ?? 0) + m[0].length;
  }
  out.push(text.slice(last));
  return out;
}

const compileAll = (list: readonly string[]): Template[] => list.map(compile);

export const T = {
  assistant: compileAll(ASSISTANT),
  user: compileAll(USER),
  userOpeners: USER_OPENERS,
  reasoning: compileAll(REASONING),
  headings: compileAll(REASONING_HEADINGS),
  interim: compileAll(INTERIM),
  openers: compileAll(RESPONSE_OPENERS),
  commits: compileAll(COMMITS),
  logs: compileAll(LOG_LINES),
  code: {
    ts: { head: compileAll(CODE.ts.head), body: compileAll(CODE.ts.body), tail: CODE.ts.tail },
    py: { head: compileAll(CODE.py.head), body: compileAll(CODE.py.body), tail: CODE.py.tail },
    go: { head: compileAll(CODE.go.head), body: compileAll(CODE.go.body), tail: CODE.go.tail },
    rs: { head: compileAll(CODE.rs.head), body: compileAll(CODE.rs.body), tail: CODE.rs.tail },
  },
};

interface VerbForms {
  base: string;
  past: string;
  gerund: string;
  third: string;
}

const VOWELS = new Set(['a', 'e', 'i', 'o', 'u']);
const VOWEL_START = /^[aeiou]/i;

function verbForms(entry: string): VerbForms {
  const [base, past0, gerund0] = entry.split(':');
  const last = base[base.length - 1];
  const beforeLast = base[base.length - 2] ?? '';
  const consonantY = last === 'y' && !VOWELS.has(beforeLast);
  const past = past0 ?? (last === 'e' ? `${base}d` : consonantY ? `${base.slice(0, -1)}ied` : `${base}ed`);
  const gerund =
    gerund0 ??
    (base.endsWith('ie')
      ? `${base.slice(0, -2)}ying`
      : last === 'e' && !base.endsWith('ee')
        ? `${base.slice(0, -1)}ing`
        : `${base}ing`);
  const third = /(s|x|z|ch|sh)$/.test(base)
    ? `${base}es`
    : consonantY
      ? `${base.slice(0, -1)}ies`
      : `${base}s`;
  return { base: base.replace(/_/g, ' '), past, gerund, third };
}

const VERB_FORMS: readonly VerbForms[] = VERBS.map(verbForms);

export function plural(word: string): string {
  const fixed = PLURALS[word];
  if (fixed) return fixed;
  const last = word[word.length - 1];
  if (/(s|x|z|ch|sh)$/.test(word)) return `${word}es`;
  if (last === 'y' && !VOWELS.has(word[word.length - 2] ?? '')) return `${word.slice(0, -1)}ies`;
  return `${word}s`;
}

/** Prose form of a lexicon word: `invoice_line` reads as "invoice line". */
const prose = (w: string) => (w.includes('_') ? w.replace(/_/g, ' ') : w);

export class TextGen {
  /** Milliseconds; advanced by the session so log timestamps follow the conversation. */
  clock = 0;

  constructor(
    readonly r: Random,
    readonly p: Project,
  ) {}

  /** Domain noun: project modules first, global long tail otherwise. */
  nounWord(): string {
    return this.r.next() < 0.55 ? this.r.zipf(this.p.modules) : this.r.zipf(DOMAIN_NOUNS);
  }

  verb(): VerbForms {
    return this.r.zipf(VERB_FORMS);
  }

  path(): string {
    return this.r.zipf(this.p.files);
  }

  testPath(): string {
    return this.r.zipf(this.p.tests);
  }

  fn(): string {
    return this.r.zipf(this.p.fns);
  }

  error(): string {
    return this.r.next() < 0.7 ? this.r.zipf(this.p.errors) : this.r.zipf(ERROR_CODES);
  }

  lib(): string {
    return this.r.next() < 0.7 ? this.r.zipf(this.p.libs) : this.r.zipf(LIBRARIES);
  }

  command(): string {
    const c = this.p.commands;
    const x = this.r.next();
    return x < 0.5 ? c.test : x < 0.65 ? c.typecheck : x < 0.8 ? c.lint : x < 0.92 ? c.build : c.run;
  }

  timestamp(): string {
    const d = new Date(this.clock);
    this.clock += this.r.range(1, 900);
    return d.toISOString().replace('T', ' ').slice(0, 23);
  }

  slot(id: number): string {
    const r = this.r;
    switch (SLOTS[id] as SlotName) {
      case 'n':
        return prose(this.nounWord());
      case 'ns':
        return plural(prose(this.nounWord()));
      case 't':
        return prose(r.zipf(TECH_NOUNS));
      case 'ts':
        return plural(prose(r.zipf(TECH_NOUNS)));
      case 'v':
        return this.verb().base;
      case 'vd':
        return this.verb().past;
      case 'vg':
        return this.verb().gerund;
      case 'v3':
        return this.verb().third;
      case 'Vg':
        return cap(this.verb().gerund);
      case 'a':
        return prose(r.zipf(ADJECTIVES));
      case 'd':
        return r.zipf(ADVERBS);
      case 'g':
        return r.zipf(GENERAL_NOUNS);
      case 'gs':
        return plural(r.zipf(GENERAL_NOUNS));
      case 'p':
        return this.path();
      case 'tp':
        return this.testPath();
      case 'dir':
        return r.pick(this.p.dirs);
      case 'f':
        return this.fn();
      case 'F':
        return pascalWord(
          this.fn()
            .replace(/([a-z])([A-Z])/g, '$1_$2')
            .toLowerCase(),
        );
      case 'c':
        return r.zipf(this.p.classes);
      case 'k':
        return r.pick(this.p.consts);
      case 'env':
        return r.pick(this.p.envs);
      case 'e':
        return this.error();
      case 'l':
        return this.lib();
      case 'cmd':
        return this.command();
      case 'num':
        return `${r.range(2, 48)}`;
      case 'big':
        return `${r.range(100, 48000)}`;
      case 'ms':
        return `${Math.round(r.logUniform(3, 9000))}`;
      case 'pct':
        return `${r.range(1, 99)}`;
      case 'ver':
        return `${r.range(0, 9)}.${r.range(0, 30)}.${r.range(0, 20)}`;
      case 'br':
        return r.pick(this.p.branches);
      case 'person':
        return r.zipf(PEOPLE);
      case 'hash':
        return r.hex(7);
      case 'line':
        return `${r.range(1, 420)}`;
      case 'vendor':
        return r.zipf(VENDORS);
      case 'mod':
        return r.zipf(this.p.modules);
      case 'nv':
        return identWord(this.p.lang, this.nounWord());
      case 'tv':
        return identWord(this.p.lang, r.zipf(TECH_NOUNS));
      case 'C':
        return pascalWord(this.nounWord());
      case 'ts8':
        return this.timestamp();
    }
  }

  /** One slot by name (for code that builds text without a template). */
  w(name: SlotName): string {
    return this.slot(SLOT_ID.get(name) as number);
  }

  fill(t: Template): string {
    let out = t[0] as string;
    for (let i = 1; i < t.length; i += 2) {
      const value = this.slot(t[i] as number);
      // "a" before a vowel-initial slot value reads as "an".
      if (
        VOWEL_START.test(value) &&
        (out.endsWith(' a ') || out === 'a ' || out.endsWith(' A ') || out === 'A ')
      ) {
        out = `${out.slice(0, -1)}n `;
      }
      out += value + (t[i + 1] as string);
    }
    return out;
  }

  sentence(pool: readonly Template[], capitalize = true): string {
    const s = this.fill(this.r.pick(pool));
    return capitalize && s.charCodeAt(0) >= 97 && s.charCodeAt(0) <= 122 ? cap(s) : s;
  }

  /** A user request, 50–600 characters typically; a few paste a log excerpt. */
  prompt(): string {
    const r = this.r;
    const target = 40 + Math.floor(560 * r.next() ** 2.2);
    let out = r.pick(T.userOpeners) + this.fill(r.pick(T.user));
    while (out.length < target) {
      const sep = /[?.!]$/.test(out) ? ' ' : r.chance(0.6) ? '. ' : r.chance(0.5) ? ', and ' : '\n';
      out += sep + this.fill(r.pick(T.user));
    }
    if (r.chance(0.08)) {
      const lines = Array.from({ length: r.range(2, 6) }, () => this.fill(r.pick(T.logs)));
      out += `\n\n\`\`\`\n${lines.join('\n')}\n\`\`\``;
    }
    return out;
  }

  paragraph(pool: readonly Template[], sentences: number): string {
    let out = this.sentence(pool);
    for (let i = 1; i < sentences; i++) out += ` ${this.sentence(pool)}`;
    return out;
  }

  /** An assistant answer of 200–3,000 characters with markdown: paragraphs, lists, code. */
  response(minChars = 0): string {
    const r = this.r;
    const target = Math.max(minChars, 180 + Math.floor(2800 * r.next() ** 2));
    const blocks: string[] = [];
    let len = 0;
    if (r.chance(0.4)) {
      const o = this.sentence(T.openers);
      blocks.push(o);
      len += o.length;
    }
    while (len < target) {
      const roll = r.next();
      let b: string;
      if (roll < 0.6 || blocks.length === 0) b = this.paragraph(T.assistant, r.range(1, 4));
      else if (roll < 0.8) {
        b = Array.from({ length: r.range(2, 5) }, () => `- ${this.sentence(T.assistant)}`).join('\n');
        if (r.chance(0.5))
          b = `${r.pick(['Changes:', 'What changed:', 'Notes:', '## Summary', '### Changes'])}\n\n${b}`;
      } else if (roll < 0.93 && target > 500) {
        b = `\`\`\`${this.p.lang === 'rs' ? 'rust' : this.p.lang === 'py' ? 'python' : this.p.lang}\n${this.code(r.range(3, 14)).join('\n')}\n\`\`\``;
      } else b = `\`${this.path()}\`: ${this.sentence(T.assistant, false)}`;
      blocks.push(b);
      len += b.length + 2;
    }
    return blocks.join('\n\n');
  }

  /** Model reasoning: a few sentences, sometimes under a bold heading (Codex summaries). */
  reasoning(heading = false): string {
    const r = this.r;
    const body = this.paragraph(T.reasoning, r.range(1, 6));
    return heading ? `${this.fill(r.pick(T.headings))}\n\n${body}` : body;
  }

  interim(): string {
    return this.sentence(T.interim);
  }

  commit(): string {
    return this.fill(this.r.pick(T.commits));
  }

  logLine(): string {
    return this.fill(this.r.pick(T.logs));
  }

  /** Lines of code in the project's language: one function-like block. */
  code(bodyLines: number): string[] {
    const c = T.code[this.p.lang];
    const out = [this.fill(this.r.pick(c.head))];
    for (let i = 0; i < bodyLines; i++) out.push(this.fill(this.r.pick(c.body)));
    if (c.tail) out.push(c.tail);
    return out;
  }

  /** Code lines until about `bytes` characters, as a file would read. */
  codeFile(bytes: number): string[] {
    const r = this.r;
    const out: string[] = [];
    let len = 0;
    const lang = this.p.lang;
    const imports =
      lang === 'ts'
        ? [`import { ${this.fn()} } from './${this.r.pick(this.p.modules).replace(/_/g, '-')}.js';`]
        : lang === 'py'
          ? [`from app.${snakeMod(this)} import ${this.fn()}`]
          : lang === 'go'
            ? [`package ${snakeMod(this)}`, '', 'import (', '\t"context"', '\t"fmt"', ')']
            : [`use crate::${snakeMod(this)}::${pascal([this.nounWord()])};`];
    for (const l of imports) {
      out.push(l);
      len += l.length + 1;
    }
    while (len < bytes) {
      out.push('');
      if (r.chance(0.3))
        out.push(lang === 'py' ? `# ${this.sentence(T.assistant)}` : `// ${this.sentence(T.assistant)}`);
      for (const l of this.code(r.range(2, 12))) {
        out.push(l);
        len += l.length + 1;
      }
    }
    return out;
  }
}

function snakeMod(g: TextGen): string {
  return g.r.pick(g.p.modules).replace(/-/g, '_');
}
