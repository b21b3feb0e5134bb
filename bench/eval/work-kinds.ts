/**
 * Question sets over coding sessions: paraphrase, answer-after-question, dated, who-said-it and
 * identifier. Each fact is planted in its own Claude Code session among filler turns, with
 * distractors elsewhere that share the question's words but do not answer it. Every template has
 * several phrasings and every slot is drawn per fact, so no one template decides a set.
 */

import { porterStem } from '../../src/core/porter.js';
import { baselineWords } from '../../src/core/scorecard.js';
import { CITIES, PEOPLE, VENDORS } from '../corpus/lexicon.js';
import type { Random } from '../corpus/prng.js';
import { camel, kebab, type Project, snake } from '../corpus/world.js';
import { type Corpus, DAY, edit, fill, grep, HOUR, read, shell, ymd } from './builder.js';

const FACETS = [
  'export',
  'sync',
  'import',
  'report',
  'search',
  'checkout',
  'webhook',
  'dashboard',
  'api',
  'worker',
];
const STORES = ['Redis', 'Memcached', 'Varnish', 'KeyDB', 'Hazelcast'];
const LIBS = ['date-fns', 'Luxon', 'Day.js', 'Temporal polyfill'];

/** A two-word subject in a project's own vocabulary, e.g. "invoice export". */
function entity(r: Random, p: Project, taken: Set<string>): string {
  for (let i = 0; i < 50; i++) {
    const e = `${r.pick(p.modules).replace(/_/g, ' ')} ${r.pick(FACETS)}`;
    if (!taken.has(`${p.name}:${e}`)) {
      taken.add(`${p.name}:${e}`);
      return e;
    }
  }
  const e = `${r.pick(p.modules).replace(/_/g, ' ')} ${r.pick(FACETS)} ${taken.size}`;
  taken.add(`${p.name}:${e}`);
  return e;
}

/** Porter stems of a text's non-stop words (what a lexical match could use). */
function stems(text: string): Set<string> {
  return new Set(baselineWords(text).map(porterStem));
}

function sharesWord(a: string, b: string): boolean {
  const sb = stems(b);
  return [...stems(a)].some((s) => sb.has(s));
}

interface Concept {
  answers: string[];
  questions: string[];
  /** Sentences that share the question's words without answering it (other sessions). */
  distractors: string[];
  values: (r: Random, p: Project) => Record<string, string | number>;
}

const PARAPHRASE: Concept[] = [
  {
    answers: [
      'We ripped {S} out from in front of the {E} lookups: invalidation kept handing back outdated totals after bulk imports, so reads go straight to Postgres now.',
      'The {E} path no longer goes through {S}. It returned old values every time an import finished, and a covering index made the direct read fast enough.',
    ],
    questions: [
      'why did we stop caching the {E}?',
      'what made us get rid of the {E} cache?',
      'reason the caching layer for {E} was removed',
    ],
    distractors: [
      'Could we put a cache in front of the {E}? Just an idea, the p95 looks fine for now.',
      'The {E} cache hit ratio dashboard is broken again, can you check the panel query?',
    ],
    values: (r) => ({ S: r.pick(STORES) }),
  },
  {
    answers: [
      'Moved the {E} date handling from moment to {L}: moment is in maintenance mode and it added about 70 KB to the bundle.',
      'Swapped moment for {L} inside {E}; the old package is frozen upstream and was the biggest chunk in the bundle report.',
    ],
    questions: [
      'why did we replace moment in the {E}?',
      'which library handles dates for the {E} now?',
      'why is moment gone from {E}',
    ],
    distractors: [
      'The {E} shows dates in UTC, should it use the browser timezone instead?',
      'moment is still imported by the legacy admin, leave it there for now.',
    ],
    values: (r) => ({ L: r.pick(LIBS) }),
  },
  {
    answers: [
      'Calls from the {E} to {V} now back off exponentially: three attempts, starting at 200 ms, with jitter. The fixed one-second loop hammered them during their outage.',
      'For {V} the {E} uses jittered exponential backoff (200 ms base, 3 tries) instead of the constant sleep that made their incident worse.',
    ],
    questions: [
      'how does the {E} retry {V} requests?',
      'what is the backoff for {V} calls in the {E}?',
      'what happens when {V} fails in {E}',
    ],
    distractors: [
      '{V} sent a notice about API deprecations, nothing in there affects the {E}.',
      'Retry the failed {E} job by hand once {V} is back.',
    ],
    values: (r) => ({ V: r.pick(VENDORS) }),
  },
  {
    answers: [
      'Raised the {E} worker deadline to {N} seconds; exports for the biggest tenants were being killed half way through.',
      'The {E} job may now run {N} s before the supervisor stops it, because large accounts never finished under the old limit.',
    ],
    questions: [
      'why was the {E} job timing out?',
      'how long can the {E} run now?',
      '{E} killed midway what did we change',
    ],
    distractors: [
      'The {E} job log is too noisy, drop the debug lines please.',
      'Timeouts on the staging box are expected, it has one CPU.',
    ],
    values: (r) => ({ N: r.pick([300, 600, 900, 1200, 1800]) }),
  },
  {
    answers: [
      'Switched the {E} listing to keyset cursors on (created_at, id). OFFSET scans got slower the deeper people paged, past page 200 it was seconds.',
      'The {E} list now pages by cursor instead of OFFSET: every extra page re-read all earlier rows.',
    ],
    questions: [
      "why don't we use offset paging for the {E}?",
      'how is the {E} list paginated?',
      'deep pages slow in {E} list',
    ],
    distractors: [
      'Add a page size selector to the {E} list, support keeps asking.',
      'The {E} list page title is wrong in the breadcrumb.',
    ],
    values: () => ({}),
  },
  {
    answers: [
      'The redesigned {E} ships dark behind the {F} toggle; support wanted a week to update their help articles first.',
      "New {E} screens stay off for customers ({F} is false in production) until support's docs are rewritten.",
    ],
    questions: [
      'why is the new {E} screen hidden?',
      'when will customers see the {E} redesign?',
      'which flag controls the {E} redesign',
    ],
    distractors: [
      'Screenshots of the {E} for the release notes are in the shared drive.',
      'The {E} redesign mockups from design are linked in the ticket.',
    ],
    values: (r) => ({
      F: `${r.pick(['enable', 'use', 'show'])}_${r.pick(['new', 'v2', 'next'])}_${r.pick(['layout', 'ui', 'flow'])}`,
    }),
  },
  {
    answers: [
      'Added a partial btree on {T}(tenant_id) WHERE deleted_at IS NULL, and the {E} query went from {A} ms to {B} ms.',
      'With a partial index on {T} covering live rows only, the {E} lookup dropped from {A} ms to about {B} ms.',
    ],
    questions: [
      'how did we speed up the {E} query?',
      'what made {E} lookups fast again?',
      '{E} query slow fix',
    ],
    distractors: [
      'The {E} query plan looks odd on staging, but staging has no data.',
      'Can you make the {E} faster to load on mobile? The images are huge.',
    ],
    values: (r, p) => ({ T: `${snake([r.pick(p.modules)])}s`, A: r.range(800, 4000), B: r.range(4, 40) }),
  },
  {
    answers: [
      'Pinned the {E} build image to Node {N}: the next major broke our native bcrypt binding and the prebuilt binaries are not out yet.',
      'The {E} stays on Node {N} until bcrypt ships binaries for the newer runtime; compiling it in CI failed.',
    ],
    questions: [
      'why are we stuck on an old node for the {E}?',
      "why can't the {E} upgrade node?",
      '{E} node upgrade blocked',
    ],
    distractors: [
      'Upgrade the {E} dev dependencies, dependabot has twelve open PRs.',
      'Node on my laptop is newer than CI, is that a problem for {E}?',
    ],
    values: (r) => ({ N: r.pick([18, 20]) }),
  },
  {
    answers: [
      '{E} code moved into its own package under packages/{K} so the mobile team can publish it without waiting for the web release train.',
      'Split {E} out as packages/{K}: mobile releases weekly and could not wait for the monthly web train.',
    ],
    questions: [
      'why does the {E} live in a separate package?',
      'who needed the {E} split out?',
      'reason for extracting {E}',
    ],
    distractors: [
      'The {E} package README is out of date.',
      'Which team reviews changes to the {E}? I never know whom to tag.',
    ],
    values: (_r, p) => ({ K: kebab([p.name.split('-')[0], 'shared']) }),
  },
  {
    answers: [
      'The {E} allows {N} requests per minute per API key, enforced by a token bucket at the gateway; a single scraper was eating a third of capacity.',
      'Per key we let {N} calls a minute through to the {E}; one crawler had taken a third of the pool before we added the bucket.',
    ],
    questions: [
      'what is the rate limit on the {E}?',
      'why did we throttle {E} requests?',
      'how many calls a minute can a client make to the {E}',
    ],
    distractors: [
      'Requests to the {E} spike every Monday at nine, probably the weekly digest.',
      'The API key page should show when a key was last used.',
    ],
    values: (r) => ({ N: r.pick([60, 120, 300, 600, 1000]) }),
  },
  {
    answers: [
      'Dropped request bodies from the {E} logs: they carried card numbers, and the PCI auditor flagged it in the {M} review.',
      'No more payload logging in the {E}; the auditor found primary account numbers in there during the {M} assessment.',
    ],
    questions: [
      "why don't the {E} logs include payloads anymore?",
      'what did the auditor flag about the {E}?',
      '{E} logging sensitive data',
    ],
    distractors: [
      'Ship the {E} logs to the new cluster, the old one is full.',
      'Log level for the {E} should be info in production.',
    ],
    values: (r) => ({ M: r.pick(['March', 'June', 'September', 'annual', 'quarterly']) }),
  },
  {
    answers: [
      'The {E} reconciliation moved from hourly to 03:15 UTC nightly; running it during business hours locked the {T} table.',
      '{E} reconciles once a night now (03:15 UTC) because the hourly run held a lock on {T} while customers were active.',
    ],
    questions: [
      'when does the {E} reconciliation run?',
      'why is the {E} reconciling only at night?',
      '{E} reconciliation schedule',
    ],
    distractors: [
      'Reconciliation totals for the {E} look off by one cent, rounding?',
      'Who gets the email when the {E} reconciliation has differences?',
    ],
    values: (r, p) => ({ T: `${snake([r.pick(p.modules)])}s` }),
  },
];

/** A user question and a reply that shares no word with it. */
interface AskPair {
  prompt: string;
  asks: string[];
  reply: string;
  values: (r: Random, p: Project) => Record<string, string | number>;
}

const ASK_PAIRS: AskPair[] = [
  {
    prompt: 'which port does the {E} listen on in staging?',
    asks: ['which port does the {E} listen on in staging', 'what port is the staging {E} on?'],
    reply: "It's {N}, see deploy/values-stg.yaml.",
    values: (r) => ({ N: r.pick([8443, 9090, 7001, 8081, 3443, 5050]) }),
  },
  {
    prompt: 'who is on call for the {E} this week?',
    asks: ['who is on call for the {E} this week', 'on call person for {E}'],
    reply: '{P}. Rotation flips Monday morning.',
    values: (r) => ({ P: r.pick(PEOPLE) }),
  },
  {
    prompt: 'how big is the {E} table now?',
    asks: ['how big is the {E} table', 'size of the {E} table'],
    reply: 'About {N} million rows, {G} GB including indexes.',
    values: (r) => ({ N: r.range(3, 90), G: r.range(2, 60) }),
  },
  {
    prompt: 'which region is the {E} deployed to?',
    asks: ['which region is the {E} deployed to', 'region of the {E} deployment'],
    reply: '{R}, plus a warm standby in {R2}.',
    values: (r) => {
      const regions = ['eu-west-1', 'us-east-2', 'ap-southeast-1', 'eu-central-1', 'us-west-2'];
      const R = r.pick(regions);
      return { R, R2: r.pick(regions.filter((x) => x !== R)) };
    },
  },
  {
    prompt: 'how long does the full {E} test suite take on CI?',
    asks: ['how long does the {E} test suite take on CI', 'CI duration of the {E} tests'],
    reply: 'Roughly {N} minutes; the browser shard dominates at {M}.',
    values: (r) => ({ N: r.range(9, 40), M: r.range(4, 8) }),
  },
  {
    prompt: "what's the p99 latency of the {E} endpoint?",
    asks: ['p99 latency of the {E} endpoint', 'what is the {E} endpoint latency at p99'],
    reply: '{N} ms at peak, around {M} ms overnight.',
    values: (r) => ({ N: r.range(200, 900), M: r.range(40, 190) }),
  },
  {
    prompt: 'which library do we use for {E} pdf rendering?',
    asks: ['which library renders the {E} pdf', 'library used for {E} pdf rendering'],
    reply: '{L}, running headless Chromium pinned to {V}.',
    values: (r) => ({ L: r.pick(['Puppeteer', 'Playwright', 'Gotenberg']), V: r.range(110, 131) }),
  },
  {
    prompt: 'how many workers does the {E} queue run?',
    asks: ['how many workers does the {E} queue run', 'number of {E} queue workers'],
    reply: '{N} consumers, autoscaling to {M} above a five thousand backlog.',
    values: (r) => ({ N: r.pick(['Two', 'Four', 'Six', 'Eight']), M: r.pick(['twenty', 'thirty', 'forty']) }),
  },
  {
    prompt: "what's the retention on {E} audit logs?",
    asks: ['retention of {E} audit logs', 'how long are {E} audit logs kept'],
    reply: '{N} days, then they move to cold storage in {B}.',
    values: (r) => ({ N: r.pick([90, 180, 400, 730]), B: r.pick(['GCS', 'S3 Glacier', 'Azure Archive']) }),
  },
  {
    prompt: 'what is the max upload size for {E} attachments?',
    asks: ['max upload size for {E} attachments', 'how large can an {E} attachment be'],
    reply: '{N} MB per file, {M} MB per request.',
    values: (r) => ({ N: r.pick([10, 25, 50]), M: r.pick([100, 200]) }),
  },
  {
    prompt: 'where do the {E} feature flags get configured?',
    asks: ['where are the {E} feature flags configured', '{E} feature flags configuration location'],
    reply: "In {T}, project 'core', environment 'production'.",
    values: (r) => ({ T: r.pick(['LaunchDarkly', 'Unleash', 'Flagsmith', 'GrowthBook']) }),
  },
  {
    prompt: 'which postgres version does the {E} run against in prod?',
    asks: ['postgres version for the {E} in prod', 'which postgres version does the {E} use in production'],
    reply: '{V}; moving to {W} is scheduled after the freeze.',
    values: (r) => ({ V: r.pick(['14.9', '15.4', '15.7']), W: r.pick(['16', '17']) }),
  },
];

interface Recurring {
  /** The user reporting it (same words every time: only the date tells them apart). */
  report: string;
  /** Why it happened this time. */
  explain: string;
  causes: string[];
  question: string;
}

const RECURRING: Recurring[] = [
  {
    report: 'the nightly {E} import failed again, can you look at what happened?',
    explain: 'The nightly {E} import failed because {C}. I reran it after the fix and it completed.',
    causes: [
      'the upstream SFTP host rotated its host key',
      'a CSV row had an unescaped quote in the notes column',
      'the disk on the worker filled up with temp files',
      'the vendor renamed the price column to unit_price',
      'the database password expired overnight',
      'a daylight saving shift made the window start twice',
    ],
    question: 'why did the nightly {E} import fail {W}?',
  },
  {
    report: 'the {E} deploy got rolled back, what went wrong?',
    explain: 'The {E} deploy was rolled back because {C}; it went out cleanly on the second attempt.',
    causes: [
      'the health check path changed and the probes failed',
      'a migration took a lock longer than the deploy timeout',
      'the new image was built for arm64 only',
      'an environment variable was missing in the production secret',
      'memory limits were too tight for the new cache warmup',
      'the canary error rate crossed two percent',
    ],
    question: 'why was the {E} deploy rolled back {W}?',
  },
  {
    report: 'we got paged for {E} latency, can you dig in?',
    explain: 'The {E} latency page was caused by {C}. Latency is back to normal.',
    causes: [
      'a full table scan after the stats reset',
      'a noisy neighbour on the shared node pool',
      'DNS lookups timing out inside the cluster',
      'a retry storm from the mobile client',
      'garbage collection pauses after the heap grew',
      'connection pool exhaustion during the batch job',
    ],
    question: 'what caused the {E} latency page {W}?',
  },
  {
    report: 'the {E} tests went red on main, please check',
    explain: 'The {E} tests broke because {C}; fixed and main is green again.',
    causes: [
      'a fixture depended on the current date',
      'two tests shared one temp directory',
      'the snapshot included a random id',
      'a mocked clock leaked into the next file',
      'the CI runner image updated the timezone database',
      'a port was already taken by a leftover server',
    ],
    question: 'why did the {E} tests break {W}?',
  },
  {
    report: 'disk usage alert on the {E} host, what is eating the space?',
    explain:
      'The {E} host filled its disk because {C}. I cleaned it up and added a cron to keep it in check.',
    causes: [
      'core dumps from a crashing sidecar piled up in /var/crash',
      'log rotation stopped after the logrotate config was overwritten',
      'an old Docker build cache grew to forty gigabytes',
      'a debug flag wrote every request body to disk',
      'backups were written locally because the bucket credentials expired',
      'a runaway job kept writing temp exports and never deleted them',
    ],
    question: 'what filled the disk on the {E} host {W}?',
  },
  {
    report: 'customers say {E} emails never arrived, can you check?',
    explain: 'The {E} emails were not delivered because {C}; the queue has been drained and resent.',
    causes: [
      'the sending domain lost its DKIM record during a DNS change',
      'the provider throttled us after a bounce spike',
      'a template variable was missing and rendering threw',
      'the worker was deployed without the SMTP password',
      'messages were stuck behind a poison message in the queue',
      'the unsubscribe list was applied to transactional mail by mistake',
    ],
    question: 'why did the {E} emails not arrive {W}?',
  },
];

interface Topic {
  /** What the user asks for (mentions the topic). */
  ask: string;
  /** What the assistant suggests (mentions the topic). */
  suggest: string;
  /** A named colleague's opinion, relayed by the user. */
  said: string;
  /** Other steps that mention the topic. */
  mentions: string[];
  name: string;
}

const TOPICS: ((e: string, r: Random) => Topic)[] = [
  (e, r) => ({
    name: `the ${e} retries`,
    ask: `can you make the ${e} retries stop flooding the logs when the upstream is down?`,
    suggest: `For the ${e} retries I'd suggest a circuit breaker: after ${r.range(3, 9)} consecutive failures, skip calls for thirty seconds instead of retrying each request.`,
    said: `{P} says the ${e} retries should give up after one minute, since the caller times out anyway.`,
    mentions: [
      `The ${e} retries are configured in the client wrapper.`,
      `Logged ${r.range(200, 900)} ${e} retries in the last hour.`,
    ],
  }),
  (e, r) => ({
    name: `the flaky ${e} test`,
    ask: `please look into the flaky ${e} test, it failed three times on CI today`,
    suggest: `The flaky ${e} test waits on a real timer; I'd suggest injecting a fake clock so it never depends on CI speed.`,
    said: `{P} thinks the flaky ${e} test should be quarantined until after the release.`,
    mentions: [
      `The ${e} test passed on rerun.`,
      `The ${e} test suite took ${r.range(20, 90)} seconds on CI.`,
    ],
  }),
  (e, r) => ({
    name: `the ${e} migration`,
    ask: `I need the ${e} migration to run without downtime, how should we do it?`,
    suggest: `For the ${e} migration I suggest expand and contract: add the new column, backfill in batches of ${r.pick([500, 1000, 5000])}, switch reads, then drop the old one.`,
    said: `{P} wants the ${e} migration postponed until the billing freeze ends.`,
    mentions: [`The ${e} migration file is next to the others.`, `Ran the ${e} migration on staging.`],
  }),
  (e, r) => ({
    name: `the ${e} bundle size`,
    ask: `the ${e} bundle size grew again, can you find out why?`,
    suggest: `To cut the ${e} bundle size I'd suggest lazy loading the chart library; it is ${r.range(120, 400)} KB and only the reports tab uses it.`,
    said: `{P} asked for the ${e} bundle size to stay under the budget in the performance doc.`,
    mentions: [
      `The ${e} bundle size report is attached to the CI run.`,
      `Bundle size for the ${e} went up by a few KB.`,
    ],
  }),
  (e) => ({
    name: `the ${e} error messages`,
    ask: `users complain the ${e} error messages are confusing, can you improve them?`,
    suggest: `For the ${e} error messages I suggest saying what to do next, e.g. "check the file has a header row", and linking the help page.`,
    said: `{P} says legal must approve any change to the ${e} error messages shown to customers.`,
    mentions: [
      `The ${e} error messages live in the locale files.`,
      `Two ${e} error messages were missing translations.`,
    ],
  }),
  (e, r) => ({
    name: `the ${e} alerting`,
    ask: `the ${e} alerting pages us at night for nothing, can we tune it?`,
    suggest: `For the ${e} alerting I suggest alerting on the error budget burn rate over one hour instead of single ${r.pick(['5xx', 'timeout', 'queue depth'])} spikes.`,
    said: `{P} wants the ${e} alerting to page only the primary on call, not the whole team.`,
    mentions: [
      `The ${e} alerting rules are in the monitoring repo.`,
      `Silenced the ${e} alerting during the maintenance window.`,
    ],
  }),
];

const ASKED_I = [
  'what did I ask about {X}?',
  'what was my request about {X}?',
  'what did I want done about {X}',
];
const ASKED_YOU = [
  'what did you suggest for {X}?',
  'what did you recommend for {X}',
  'your suggestion for {X}?',
];
const ASKED_NAMED = [
  'what did {P} say about {X}?',
  "what was {P}'s view on {X}?",
  'what does {P} think about {X}',
];

function pickProject(r: Random, projects: readonly Project[]): Project {
  return r.pick(projects);
}

/** A start time in 2026 (planted sessions are dated after the background corpus). */
function when2026(r: Random): number {
  return Date.UTC(2026, 0, 5) + r.range(0, 300) * DAY + r.range(8, 18) * HOUR;
}

/** `n` decisions with their reasons, asked in other words; two distractor sessions each. */
export function paraphraseSet(c: Corpus, projects: readonly Project[], n: number): void {
  const r = c.random('paraphrase');
  const taken = new Set<string>();
  for (let i = 0; i < n; i++) {
    const concept = PARAPHRASE[i % PARAPHRASE.length];
    const p = pickProject(r, projects);
    const E = entity(r, p, taken);
    const v = { E, ...concept.values(r, p) };
    const s = c.session(p, when2026(r)).filler(r.range(1, 3));
    s.user(s.g.prompt()).assistant(fill(r.pick(concept.answers), v), {
      mark: `para-${i}`,
      reasoning: s.g.reasoning(),
    });
    s.filler(r.range(1, 3));
    for (const d of concept.distractors) {
      const other = c.session(pickProject(r, projects), when2026(r)).filler(r.range(0, 2));
      other.user(fill(d, v)).assistant(other.g.response());
      other.filler(1);
    }
    c.ask({ kind: 'paraphrase', question: fill(r.pick(concept.questions), v), marks: [`para-${i}`] });
  }
}

/** `n` user questions answered one turn later by a reply sharing no word with the question. */
export function answerAfterSet(c: Corpus, projects: readonly Project[], n: number): void {
  const r = c.random('answer-after');
  const taken = new Set<string>();
  for (let i = 0; i < n; i++) {
    const pair = ASK_PAIRS[i % ASK_PAIRS.length];
    const p = pickProject(r, projects);
    let v: Record<string, string | number> = {};
    let reply = '';
    let ask = '';
    // Redraw the slots until the reply shares no word with the question (the point of the kind).
    for (let attempt = 0; attempt < 20; attempt++) {
      v = { E: entity(r, p, taken), ...pair.values(r, p) };
      reply = fill(pair.reply, v);
      ask = fill(r.pick(pair.asks), v);
      if (!sharesWord(ask, reply) && !sharesWord(fill(pair.prompt, v), reply)) break;
      if (attempt === 19) throw new Error(`answer-after template shares words with its reply: ${reply}`);
    }
    const s = c.session(p, when2026(r)).filler(r.range(1, 3));
    s.user(fill(pair.prompt, v)).assistant(reply, { mark: `after-${i}` });
    s.filler(r.range(1, 2));
    // Others ask the same kind of thing about other subjects and get other answers.
    const d = c.session(pickProject(r, projects), when2026(r)).filler(r.range(0, 1));
    const dv = { ...v, E: entity(r, p, taken), ...pair.values(r, p) };
    d.user(fill(pair.prompt, dv)).assistant(fill(pair.reply, dv));
    c.ask({ kind: 'answer-after', question: ask, marks: [`after-${i}`] });
  }
}

const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** A phrase naming the day `at` from `asked`, and the date the question is asked at. */
function relative(r: Random, at: number): { phrase: string; date: string } {
  const d = new Date(at);
  const form = r.int(6);
  if (form === 0) return { phrase: 'yesterday', date: ymd(at + DAY) };
  if (form === 1) return { phrase: 'two days ago', date: ymd(at + 2 * DAY) };
  if (form === 2) return { phrase: 'last week', date: ymd(at + 7 * DAY) };
  if (form === 3) {
    const k = r.range(3, 5);
    return { phrase: `${['three', 'four', 'five'][k - 3]} days ago`, date: ymd(at + k * DAY) };
  }
  if (form === 4)
    return {
      phrase: `on ${MONTH_NAMES[d.getUTCMonth()]} ${d.getUTCDate()}`,
      date: ymd(at + r.range(10, 40) * DAY),
    };
  return {
    phrase: `in ${MONTH_NAMES[d.getUTCMonth()]} ${d.getUTCFullYear()}`,
    date: ymd(at + r.range(35, 70) * DAY),
  };
}

/** Recurring incidents a month apart (five each), each asked about by its day relative to `date`. */
export function datedSet(c: Corpus, projects: readonly Project[], n: number): void {
  const r = c.random('dated');
  const taken = new Set<string>();
  const perTopic = 5;
  for (let t = 0; t * perTopic < n; t++) {
    const rec = RECURRING[t % RECURRING.length];
    const p = pickProject(r, projects);
    const E = entity(r, p, taken);
    const causes = r.shuffle([...rec.causes]);
    // One occurrence a month (at least 25 days apart), so a month or a week names exactly one.
    const base = Date.UTC(2026, r.range(0, 3), r.range(1, 5)) + r.range(8, 16) * HOUR;
    for (let k = 0; k < perTopic && t * perTopic + k < n; k++) {
      const at = base + k * (30 + r.range(0, 4)) * DAY + r.range(0, 3) * HOUR;
      const s = c.session(p, at);
      s.user(fill(rec.report, { E }));
      const mark = `dated-${t}-${k}`;
      s.assistant(fill(rec.explain, { E, C: causes[k % causes.length] }), {
        mark,
        tools: [shell(p.commands.test, `${s.g.logLine()}\n${s.g.logLine()}`, 1)],
      });
      s.filler(r.range(1, 3));
      const { phrase, date } = relative(r, at);
      c.ask({ kind: 'dated', question: fill(rec.question, { E, W: phrase }), marks: [mark], date });
    }
  }
}

/** `n` questions about who said what: the user's ask, the assistant's suggestion, a named colleague. */
export function whoSaidSet(c: Corpus, projects: readonly Project[], n: number): void {
  const r = c.random('who');
  const taken = new Set<string>();
  for (let i = 0; i < n; i++) {
    const p = pickProject(r, projects);
    const topic = r.pick(TOPICS)(entity(r, p, taken), r);
    const form = i % 3;
    const s = c.session(p, when2026(r)).filler(r.range(0, 2));
    const mark = `who-${i}`;
    if (form === 0) {
      // "what did I ask…": the user's request is the answer; the assistant talks about the topic more.
      s.user(topic.ask, mark).assistant(topic.suggest, {
        reasoning: `${topic.mentions[0]} ${s.g.reasoning()}`,
      });
      s.user(s.g.prompt()).assistant(topic.mentions[1]);
      c.ask({ kind: 'who-said-it', question: fill(r.pick(ASKED_I), { X: topic.name }), marks: [mark] });
    } else if (form === 1) {
      // "what did you suggest…": the assistant's suggestion; the user mentions the topic too.
      s.user(topic.ask).assistant(topic.suggest, { mark });
      s.user(`${topic.mentions[0]} ${s.g.prompt()}`).assistant(s.g.response());
      c.ask({ kind: 'who-said-it', question: fill(r.pick(ASKED_YOU), { X: topic.name }), marks: [mark] });
    } else {
      // A named colleague: the user relays their view; others hold other views on the same topic.
      const [P, Q] = r.shuffle([...PEOPLE]).slice(0, 2);
      s.user(fill(topic.said, { P }), mark).assistant(s.g.response());
      s.user(topic.ask).assistant(topic.suggest);
      const d = c.session(pickProject(r, projects), when2026(r)).filler(1);
      d.user(`${Q} reviewed ${topic.name} and had no objections.`).assistant(d.g.response());
      d.user(`${P} is out until ${r.pick(CITIES)} offsite ends, ${d.g.prompt()}`).assistant(d.g.response());
      c.ask({
        kind: 'who-said-it',
        question: fill(r.pick(ASKED_NAMED), { X: topic.name, P }),
        marks: [mark],
      });
    }
    s.filler(r.range(1, 2));
  }
}

/** A fresh camelCase function name from verbs and the project's nouns. */
function freshFn(r: Random, p: Project): string {
  const verb = r.pick([
    'reconcile',
    'hydrate',
    'flush',
    'resolve',
    'normalize',
    'debounce',
    'rehydrate',
    'coalesce',
  ]);
  const words = [
    verb,
    r.pick(p.modules),
    r.pick(['entries', 'batch', 'state', 'totals', 'cursor', 'snapshot']),
  ];
  return p.lang === 'py' ? snake(words) : camel(words);
}

/** `n` function names, error codes, paths and variables, explained once among tool output and near misses. */
export function identifierSet(c: Corpus, projects: readonly Project[], n: number): void {
  const r = c.random('identifier');
  const used = new Set<string>();
  for (let i = 0; i < n; i++) {
    const p = pickProject(r, projects);
    const form = i % 4;
    const s = c.session(p, when2026(r)).filler(r.range(0, 2));
    const mark = `ident-${i}`;
    const path = r.pick(p.files);
    let fn = freshFn(r, p);
    for (let k = 0; used.has(fn) && k < 10; k++) fn = freshFn(r, p);
    used.add(fn);
    const near = `${fn}${p.lang === 'py' ? '_v2' : 'V2'}`;
    const code = `ERR_${snake([r.pick(p.modules), r.pick(['quota', 'lease', 'cursor', 'ledger', 'token'])]).toUpperCase()}_${r.range(100, 999)}`;
    const env = `${snake([r.pick(p.modules), r.pick(['max', 'grace', 'batch']), r.pick(['ms', 'size', 'count'])]).toUpperCase()}`;
    // Tool output mentions the identifier first: a grep and a file read, then the explanation.
    const grepOut = [1, 2, 3]
      .map((k) => `${path}:${r.range(10, 400)}:  ${k === 2 ? near : fn}(ctx)`)
      .join('\n');
    let question: string;
    if (form === 0) {
      s.user(`${fn} returns the wrong result for archived tenants, can you fix it?`);
      s.assistant(
        `Fixed: \`${fn}\` in ${path} read the tenant before the session loaded, so archived tenants fell back to defaults. It now awaits the session first.`,
        {
          mark,
          tools: [
            grep(fn, p.dirs[0] ?? 'src', grepOut),
            read(path, `${s.g.code(6).join('\n')}\n  ${fn}(ctx)`),
          ],
        },
      );
      question = r.pick([`${fn}`, `what was wrong with ${fn}?`, `${fn} archived tenants fix`]);
    } else if (form === 1) {
      s.user(`we keep getting ${code} in production, what does it mean?`);
      s.assistant(
        `${code} is raised when a worker's lease expires mid-batch; the batch size was too large for the ${r.range(10, 60)} second lease, so I halved it in ${path}.`,
        {
          mark,
          tools: [
            shell(
              `grep -rn ${code} logs/`,
              `${code} at ${path}:${r.range(10, 300)}\n${code} at ${path}:${r.range(10, 300)}`,
              0,
            ),
          ],
        },
      );
      question = r.pick([`${code}`, `what does ${code} mean?`, `${code} production`]);
    } else if (form === 2) {
      s.user(`please change ${path} so the retry count comes from config`);
      s.assistant(
        `Done: ${path} now reads the retry count from settings instead of the hard-coded 5, and the test covers both.`,
        {
          mark,
          tools: [
            read(path, s.g.code(8).join('\n')),
            edit(path, 'retries = 5', 'retries = settings.retries'),
          ],
        },
      );
      question = r.pick([
        `${path} retry count`,
        `what did we change in ${path}?`,
        `${path.split('/').at(-1)} retries config`,
      ]);
    } else {
      s.user(`what does ${env} control?`);
      s.assistant(
        `${env} sets how long the ${r.pick(p.modules).replace(/_/g, ' ')} worker waits before giving up; the default is ${r.range(2, 30)} and production overrides it in the Helm values.`,
        {
          mark,
          tools: [
            grep(
              env,
              '.',
              `deploy/values.yaml:${r.range(3, 90)}:  ${env}: "${r.range(2, 60)}"\n.env.example:4:${env}=`,
            ),
          ],
        },
      );
      question = r.pick([`${env}`, `what is ${env} for?`, `${env} default`]);
    }
    s.filler(r.range(1, 2));
    // Near misses: the similar identifier explained elsewhere, and the identifier in tool output only.
    const d = c.session(pickProject(r, projects), when2026(r)).filler(1);
    d.user(`rename ${near} to something clearer`).assistant(
      `Renamed \`${near}\` and updated its ${r.range(2, 9)} callers.`,
    );
    d.user(d.g.prompt()).assistant(d.g.response(), {
      tools: [
        shell(
          `git log -S ${form === 1 ? code : form === 3 ? env : fn}`,
          `commit ${r.hex(40)}\n    ${d.g.commit()}`,
        ),
      ],
    });
    c.ask({ kind: 'identifier', question, marks: [mark] });
  }
}
