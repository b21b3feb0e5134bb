/**
 * The Porter (1980) stemmer, as SQLite's FTS5 `porter` tokenizer applies it, so the search layer
 * can look a query word up in the index's vocabulary (document frequency) without a round trip
 * through the tokenizer. A mismatch only costs precision of a frequency estimate, never a result.
 */

const isVowelAt = (w: string, i: number): boolean => {
  const c = w[i];
  if (c === 'a' || c === 'e' || c === 'i' || c === 'o' || c === 'u') return true;
  if (c === 'y') return i > 0 && !isVowelAt(w, i - 1);
  return false;
};

/** m in [C](VC)^m[V] for w[0..end). */
function measure(w: string, end: number): number {
  let m = 0;
  let i = 0;
  while (i < end && !isVowelAt(w, i)) i++;
  while (i < end) {
    while (i < end && isVowelAt(w, i)) i++;
    if (i >= end) break;
    m++;
    while (i < end && !isVowelAt(w, i)) i++;
  }
  return m;
}

const hasVowel = (w: string, end: number) => {
  for (let i = 0; i < end; i++) if (isVowelAt(w, i)) return true;
  return false;
};

const endsDoubleConsonant = (w: string) =>
  w.length >= 2 && w[w.length - 1] === w[w.length - 2] && !isVowelAt(w, w.length - 1);

/** cvc where the last c is not w, x or y. */
const endsCvc = (w: string, end = w.length) =>
  end >= 3 &&
  !isVowelAt(w, end - 1) &&
  isVowelAt(w, end - 2) &&
  !isVowelAt(w, end - 3) &&
  !'wxy'.includes(w[end - 1]);

function replaceSuffix(w: string, rules: [string, string][], minMeasure: number): string {
  for (const [suffix, repl] of rules) {
    if (w.endsWith(suffix)) {
      const stem = w.length - suffix.length;
      return measure(w, stem) > minMeasure ? w.slice(0, stem) + repl : w;
    }
  }
  return w;
}

const STEP2: [string, string][] = [
  ['ational', 'ate'],
  ['tional', 'tion'],
  ['enci', 'ence'],
  ['anci', 'ance'],
  ['izer', 'ize'],
  ['bli', 'ble'],
  ['alli', 'al'],
  ['entli', 'ent'],
  ['eli', 'e'],
  ['ousli', 'ous'],
  ['ization', 'ize'],
  ['ation', 'ate'],
  ['ator', 'ate'],
  ['alism', 'al'],
  ['iveness', 'ive'],
  ['fulness', 'ful'],
  ['ousness', 'ous'],
  ['aliti', 'al'],
  ['iviti', 'ive'],
  ['biliti', 'ble'],
  ['logi', 'log'],
];
const STEP3: [string, string][] = [
  ['icate', 'ic'],
  ['ative', ''],
  ['alize', 'al'],
  ['iciti', 'ic'],
  ['ical', 'ic'],
  ['ful', ''],
  ['ness', ''],
];
const STEP4 = [
  'al',
  'ance',
  'ence',
  'er',
  'ic',
  'able',
  'ible',
  'ant',
  'ement',
  'ment',
  'ent',
  'ion',
  'ou',
  'ism',
  'ate',
  'iti',
  'ous',
  'ive',
  'ize',
];

// Search stems the same words over and over (query terms, words in candidate texts).
const memo = new Map<string, string>();
const MEMO_MAX = 20_000;

/** Stem one lowercase ASCII word; other words come back unchanged. */
export function porterStem(word: string): string {
  let stem = memo.get(word);
  if (stem === undefined) {
    stem = stemUncached(word);
    if (memo.size >= MEMO_MAX) memo.clear();
    memo.set(word, stem);
  }
  return stem;
}

function stemUncached(word: string): string {
  if (word.length < 3 || word.length > 64 || !/^[a-z0-9_]+$/.test(word)) return word;
  let w = word;
  // Step 1a
  if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('ies')) w = w.slice(0, -2);
  else if (!w.endsWith('ss') && w.endsWith('s')) w = w.slice(0, -1);
  // Step 1b
  let extra = false;
  if (w.endsWith('eed')) {
    if (measure(w, w.length - 3) > 0) w = w.slice(0, -1);
  } else if (w.endsWith('ed') && hasVowel(w, w.length - 2)) {
    w = w.slice(0, -2);
    extra = true;
  } else if (w.endsWith('ing') && hasVowel(w, w.length - 3)) {
    w = w.slice(0, -3);
    extra = true;
  }
  if (extra) {
    if (w.endsWith('at') || w.endsWith('bl') || w.endsWith('iz')) w += 'e';
    else if (endsDoubleConsonant(w) && !'lsz'.includes(w[w.length - 1])) w = w.slice(0, -1);
    else if (measure(w, w.length) === 1 && endsCvc(w)) w += 'e';
  }
  // Step 1c
  if (w.endsWith('y') && hasVowel(w, w.length - 1)) w = `${w.slice(0, -1)}i`;
  // Steps 2 and 3
  w = replaceSuffix(w, STEP2, 0);
  w = replaceSuffix(w, STEP3, 0);
  // Step 4
  for (const suffix of STEP4) {
    if (!w.endsWith(suffix)) continue;
    const stem = w.length - suffix.length;
    if (measure(w, stem) > 1 && (suffix !== 'ion' || (stem > 0 && 'st'.includes(w[stem - 1]))))
      w = w.slice(0, stem);
    break;
  }
  // Step 5a
  if (w.endsWith('e')) {
    const m = measure(w, w.length - 1);
    if (m > 1 || (m === 1 && !endsCvc(w, w.length - 1))) w = w.slice(0, -1);
  }
  // Step 5b
  if (w.endsWith('ll') && measure(w, w.length) > 1) w = w.slice(0, -1);
  return w;
}
