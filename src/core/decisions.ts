/**
 * Finding decision statements in an assistant's prose without an LLM: sentences that say a choice
 * was made ("we decided", "let's use", "going with", "chose") or that weigh one option against
 * another with a choice verb nearby ("use X instead of Y", "replace Redis because …"). A weak cue
 * alone ("instead of", "because") is too common in plain explanations ("it returns null instead
 * of throwing"), so it counts only beside a verb of choosing.
 */
import { squash } from './text.js';

/** Phrases that state a choice by themselves. */
const STRONG = [
  /\b(?:we|i)(?:'ve| have)? (?:agreed|chose|chosen|opted|settled on|went with)\b/i,
  /\b(?:we|i)(?:'re| are|'ll| will) (?:go(?:ing)? with|stick(?:ing)? with|switch(?:ing)? to)\b/i,
  /\blet'?s (?:use|go with|switch|keep|drop|replace|stick with|move|adopt|avoid|not|do|make|store|remove)\b/i,
  /\bdecided\b/i,
  /\b(?:the|our|my|final) decision (?:is|was)\b/i,
  // A labelled conclusion: "Decision: …", "Fix: apply CORS first …".
  /^(?:decision|fix|approach|solution|plan|recommendation|verdict)\b[^:]{0,20}:/i,
  // A recommendation in the imperative: "Keep the explicit allowlist …".
  /^(?:keep|stick with|go with|prefer|switch to)\b/i,
  /\bgoing with\b/i,
  /\b(?:chose|opted for|settled on|switched to|went with)\b/i,
];

/** Weak cues: they weigh options, but only beside a verb of choosing do they state a decision. */
const WEAK = /\b(?:instead of|rather than|in favou?r of|because|so that|trade-?off)\b/i;
const CHOICE_VERB =
  /\b(?:use|using|used|keep|keeping|kept|drop|dropping|dropped|replace|replacing|replaced|switch|switching|prefer|preferring|clamp|clamping|move|moving|moved|stick|store|storing|adopt|pick|choose|remove|removing|removed|go with)\b/i;

const MAX_SENTENCE = 280;

/** Sentences of a prose text: code blocks dropped, list markers and emphasis stripped. */
export function sentences(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?(?:```|$)/g, '\n');
  const out: string[] = [];
  for (const raw of prose.split(/\n+/)) {
    const line = raw
      .replace(/^\s*(?:[-*+•]|\d+[.)])\s+/, '')
      .replace(/^\s*#+\s*/, '')
      .replace(/\*\*|__/g, '');
    for (const part of line.split(/(?<=[.!?])\s+(?=[A-Z0-9`"'([])/)) {
      const s = squash(part);
      if (s) out.push(s);
    }
  }
  return out;
}

/** True when a sentence states a decision (not a question, not a bare explanation). */
export function isDecision(sentence: string): boolean {
  const s = sentence.trim();
  if (s.length < 12 || s.endsWith('?')) return false;
  if (STRONG.some((re) => re.test(s))) return true;
  return WEAK.test(s) && CHOICE_VERB.test(s);
}

/** The decision sentences of a text, in order, each at most ~280 characters. */
export function decisionSentences(text: string): string[] {
  return sentences(text)
    .filter(isDecision)
    .map((s) => (s.length > MAX_SENTENCE ? `${s.slice(0, MAX_SENTENCE - 1).replace(/\s+\S*$/, '')}…` : s));
}
