/**
 * Dates named in a question — "in May 2023", "last week", "two days ago", "yesterday", "on March
 * 3" — as a time span. Search boosts steps and sessions inside it (never a filter: people misremember
 * dates, and a wrong guess must not hide the answer). Relative dates are resolved against `now`,
 * which the caller may pass (a question set passes the date each question was asked). UTC days.
 */

export interface DateSpan {
  /** Inclusive bounds, epoch milliseconds. */
  from: number;
  to: number;
  /** The words of the question that named it (search drops them from the lexical terms). */
  text: string;
}

const DAY = 86_400_000;
/** Month names, lower case (also the words question-role.ts knows are not people). */
export const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const MONTH_RE =
  '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';
/** Weekday names, lower case, Sunday first. */
export const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const NUMBER_WORDS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  few: 3,
  couple: 2,
  several: 3,
};

const monthIndex = (m: string) => MONTHS.findIndex((x) => x.startsWith(m.slice(0, 3)));
const dayStart = (t: number) => Math.floor(t / DAY) * DAY;
const utc = (y: number, m: number, d = 1) => Date.UTC(y, m, d);
const monthSpan = (y: number, m: number) => ({ from: utc(y, m), to: utc(y, m + 1) - 1 });
const daySpan = (t: number, slack = 0) => ({
  from: dayStart(t) - slack * DAY,
  to: dayStart(t) + (slack + 1) * DAY - 1,
});
/** Monday 00:00 UTC of the week holding `t`. */
const weekStart = (t: number) => dayStart(t) - ((new Date(t).getUTCDay() + 6) % 7) * DAY;

/** The year of a month (and day) named without one: the latest such date not after `now`. */
function latestYear(now: number, month: number, day = 1): number {
  const y = new Date(now).getUTCFullYear();
  return utc(y, month, day) <= now + DAY ? y : y - 1;
}

function amount(word: string): number {
  const n = Number(word);
  return Number.isFinite(n) ? n : (NUMBER_WORDS[word] ?? 1);
}

type Rule = [RegExp, (m: RegExpExecArray, now: number) => { from: number; to: number } | null];

// Most specific first: the first rule that matches names the span.
const RULES: Rule[] = [
  [/\b(\d{4})-(\d{2})-(\d{2})\b/, (m) => daySpan(utc(+m[1]!, +m[2]! - 1, +m[3]!))],
  [
    new RegExp(`\\b(?:on\\s+)?${MONTH_RE}\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b(?:,?\\s+(\\d{4}))?`),
    (m, now) => {
      const month = monthIndex(m[1]!);
      const day = +m[2]!;
      if (day < 1 || day > 31) return null;
      return daySpan(utc(m[3] ? +m[3] : latestYear(now, month, day), month, day));
    },
  ],
  [
    new RegExp(
      `\\b(?:on\\s+)?(?:the\\s+)?(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH_RE}\\b(?:,?\\s+(\\d{4}))?`,
    ),
    (m, now) => {
      const month = monthIndex(m[2]!);
      const day = +m[1]!;
      if (day < 1 || day > 31) return null;
      return daySpan(utc(m[3] ? +m[3] : latestYear(now, month, day), month, day));
    },
  ],
  [
    new RegExp(`\\b(?:in\\s+|during\\s+)?${MONTH_RE}(?:\\s+of)?,?\\s+(\\d{4})\\b`),
    (m) => monthSpan(+m[2]!, monthIndex(m[1]!)),
  ],
  [
    // "in May": a bare month after a preposition (a bare "may" is a verb).
    new RegExp(`\\b(?:in|during|since|early|late|mid)\\s+${MONTH_RE}\\b`),
    (m, now) => {
      const month = monthIndex(m[1]!);
      return monthSpan(latestYear(now, month), month);
    },
  ],
  [/\bin\s+((?:19|20)\d{2})\b/, (m) => ({ from: utc(+m[1]!, 0), to: utc(+m[1]! + 1, 0) - 1 })],
  [/\b(?:the\s+)?day\s+before\s+yesterday\b/, (_m, now) => daySpan(now - 2 * DAY)],
  [/\byesterday\b/, (_m, now) => daySpan(now - DAY)],
  [/\b(?:today|this\s+morning|this\s+afternoon|tonight|earlier\s+today)\b/, (_m, now) => daySpan(now)],
  [
    /\b(\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|(?:a\s+)?few|(?:a\s+)?couple(?:\s+of)?|several)\s+(day|week|month|year)s?\s+ago\b/,
    (m, now) => {
      const n = amount(m[1]!.replace(/^a\s+/, '').replace(/\s+of$/, ''));
      const unit = m[2]!;
      if (unit === 'day') return daySpan(now - n * DAY, n > 2 ? 1 : 0);
      const len = unit === 'week' ? 7 * DAY : unit === 'month' ? 30 * DAY : 365 * DAY;
      const at = now - n * len;
      return { from: dayStart(at - len / 2), to: dayStart(at + len / 2) + DAY - 1 };
    },
  ],
  [
    /\b(?:last|past|previous)\s+weekend\b/,
    (_m, now) => {
      const sat = weekStart(now) - 2 * DAY;
      return { from: sat, to: sat + 2 * DAY - 1 };
    },
  ],
  [/\b(?:last|previous)\s+week\b/, (_m, now) => ({ from: weekStart(now) - 7 * DAY, to: weekStart(now) - 1 })],
  [/\bthis\s+week\b/, (_m, now) => ({ from: weekStart(now), to: dayStart(now) + DAY - 1 })],
  [
    /\b(?:the\s+)?past\s+(?:few\s+days|week)\b/,
    (_m, now) => ({ from: dayStart(now) - 7 * DAY, to: dayStart(now) + DAY - 1 }),
  ],
  [
    /\b(?:last|previous)\s+month\b/,
    (_m, now) => {
      const d = new Date(now);
      return monthSpan(d.getUTCFullYear(), d.getUTCMonth() - 1);
    },
  ],
  [
    /\bthis\s+month\b/,
    (_m, now) => {
      const d = new Date(now);
      return { from: utc(d.getUTCFullYear(), d.getUTCMonth()), to: dayStart(now) + DAY - 1 };
    },
  ],
  [
    /\b(?:last|previous)\s+year\b/,
    (_m, now) => {
      const y = new Date(now).getUTCFullYear() - 1;
      return { from: utc(y, 0), to: utc(y + 1, 0) - 1 };
    },
  ],
  [
    /\bthis\s+year\b/,
    (_m, now) => ({ from: utc(new Date(now).getUTCFullYear(), 0), to: dayStart(now) + DAY - 1 }),
  ],
  [
    // A weekday said of a habit ("on Saturday mornings", "on Thursday nights"; "on Saturdays"
    // never matches) names no day: its words are searched instead.
    new RegExp(
      `\\b(?:last|on|this\\s+past)\\s+(${WEEKDAYS.join('|')})\\b(?!\\s+(?:mornings|afternoons|evenings|nights)\\b)`,
    ),
    (m, now) => {
      const want = WEEKDAYS.indexOf(m[1]!);
      let back = (new Date(now).getUTCDay() - want + 7) % 7;
      if (back === 0) back = 7;
      return daySpan(now - back * DAY);
    },
  ],
];

/**
 * What every rule needs somewhere in the question: a digit, a month's first three letters, or a
 * word of a relative date (weekdays, "yesterday" and "today" all hold "day"). Most questions hold
 * none, and then no rule is compiled or run (a one-question CLI process pays ~3 ms for the rules).
 */
const MAYBE_DATE =
  /\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|day|morning|afternoon|tonight|week|month|year/;

/** The time span a question names, or null when it names none. */
export function findDateSpan(question: string, now: number): DateSpan | null {
  const q = question.toLowerCase();
  if (!MAYBE_DATE.test(q)) return null;
  for (const [re, span] of RULES) {
    const m = re.exec(q);
    if (!m) continue;
    const s = span(m, now);
    if (s && Number.isFinite(s.from) && Number.isFinite(s.to) && s.from <= s.to)
      return { ...s, text: question.slice(m.index, m.index + m[0].length) };
  }
  return null;
}
