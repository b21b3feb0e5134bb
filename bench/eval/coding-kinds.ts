/**
 * A small set in the shape of real Claude Code work: a request, reading and grepping, an edit, a
 * failing run with the tool's real-looking error, the explanation, a decision with its reason,
 * a follow-up request and a closing summary. Questions ask for each of those the way a person
 * would a week later.
 */
import type { Random } from '../corpus/prng.js';
import { camel, type Project, snake } from '../corpus/world.js';
import { type Corpus, DAY, edit, grep, HOUR, read, shell } from './builder.js';

interface Scenario {
  request: string;
  decision: string;
  error: string;
  explain: string;
  followUp: string;
  summary: string;
  questions: [string, 'request' | 'decision' | 'explain' | 'followUp' | 'summary'][];
}

type Make = (r: Random, p: Project, e: string, path: string, fn: string) => Scenario;

const SCENARIOS: Make[] = [
  (r, _p, e, path) => ({
    request: `Add rate limiting to the ${e} upload endpoint, one client is hammering us. Keep it simple.`,
    decision: `I'll use a token bucket per API key rather than a fixed window: a fixed window lets a client burst twice the limit at the window edge, and the bucket smooths that out.`,
    error: `FAIL  test/${e.replace(/ /g, '-')}.test.ts > upload > returns 429 after the limit\nTypeError: Cannot read properties of undefined (reading 'remaining')\n    at limiter (${path}:${r.range(10, 80)}:17)`,
    explain: `The 429 test failed because the limiter store was never created in the test app, so the middleware read from undefined. I added the in-memory store to the test setup.`,
    followUp: `also make the limit configurable per plan, enterprise customers need more`,
    summary: `Done. The token bucket lives in src/middleware/rate-limit.ts, ${path} wires it into the upload route, and per-plan limits come from config/plans.yaml (free ${r.pick([10, 20])}/min, enterprise ${r.pick([200, 500])}/min).`,
    questions: [
      [`what did I ask you to do about the ${e} upload endpoint?`, 'request'],
      [`why token bucket instead of a fixed window for ${e} uploads?`, 'decision'],
      [`why did the ${e} 429 test fail?`, 'explain'],
      [`did I want per plan limits for ${e}?`, 'followUp'],
      [`which files changed for the ${e} rate limiting?`, 'summary'],
    ],
  }),
  (r, p, e, path, fn) => ({
    request: `The ${e} report shows yesterday's numbers under today for users in Auckland. Can you find the bug?`,
    decision: `I'll keep timestamps in UTC in the database and convert at the edge with the user's zone; converting in SQL would make every query depend on the session time zone.`,
    error: `AssertionError: expected '2026-03-02' to equal '2026-03-03'\n    at ${fn} (${path}:${r.range(20, 200)})\n\n1 failed, ${r.range(40, 300)} passed`,
    explain: `${fn} grouped rows by the server's local date, so anyone east of UTC+12 got the previous day. It now groups by the date in the viewer's time zone.`,
    followUp: `can you add a regression test with a Pacific/Auckland user so this never comes back?`,
    summary: `Fixed in ${path}: ${fn} takes the viewer's zone; the new test covers Pacific/Auckland and America/Anchorage. ${p.commands.test} is green.`,
    questions: [
      [`what was the ${e} report date bug?`, 'request'],
      [`why keep the ${e} timestamps in UTC?`, 'decision'],
      [`why were Auckland users seeing the wrong day in the ${e} report?`, 'explain'],
      [`what regression test did I ask for on the ${e} report?`, 'followUp'],
      [`where did we fix the ${e} time zone bug?`, 'summary'],
    ],
  }),
  (r, _p, e, path) => {
    const env = snake([e.split(' ')[0], 'api', 'url']).toUpperCase();
    return {
      request: `Move the ${e} settings out of config.json into environment variables, we need different values per deploy.`,
      decision: `I'll validate the variables once at startup with a schema and fail fast; reading process.env lazily would turn a typo into a runtime error hours later.`,
      error: `Error: Invalid environment: ${env} is required\n    at loadSettings (src/settings.ts:${r.range(5, 40)}:11)\nexit code 1`,
      explain: `The service refused to start because ${env} was not set in the test environment; I added it to .env.test and documented it in .env.example.`,
      followUp: `keep config.json working for local development for now`,
      summary: `Settings now come from the environment (validated in src/settings.ts); ${path} reads them from there, and config.json is still read locally as a fallback.`,
      questions: [
        [`what did I ask about the ${e} settings?`, 'request'],
        [`why validate the ${e} environment variables at startup?`, 'decision'],
        [`why did the ${e} service refuse to start?`, 'explain'],
        [`should config.json still work locally for ${e}?`, 'followUp'],
        [`where are the ${e} settings validated now?`, 'summary'],
      ],
    };
  },
  (r, _p, e, path, fn) => ({
    request: `The ${e} page takes ${r.range(4, 9)} seconds to load for big accounts, can you profile it?`,
    decision: `I'll batch the lookups with one IN query instead of caching them: the rows change often, and a cache would need invalidation we do not have.`,
    error: `query log: ${r.range(300, 2000)} SELECT statements for one request (SELECT * FROM owners WHERE id = $1)`,
    explain: `The page was slow because ${fn} loaded each owner separately inside the loop, an N+1 pattern with one query per row.`,
    followUp: `please add a test that fails if the page issues more than five queries`,
    summary: `${fn} in ${path} now loads owners with a single batched query; load time for the biggest account is down to ${r.range(200, 600)} ms, and a query-count test guards it.`,
    questions: [
      [`what did I ask you to profile on the ${e} page?`, 'request'],
      [`why batch the ${e} lookups instead of caching?`, 'decision'],
      [`why was the ${e} page slow?`, 'explain'],
      [`what test did I ask for on the ${e} page?`, 'followUp'],
      [`how fast is the ${e} page after the fix?`, 'summary'],
    ],
  }),
];

/** `count` working sessions (each with five questions), cycling through the scenarios. */
export function codingSet(c: Corpus, projects: readonly Project[], count: number): void {
  const r = c.random('coding');
  for (let i = 0; i < count; i++) {
    const p = r.pick(projects);
    const e = `${r.pick(p.modules).replace(/_/g, ' ')} ${r.pick(['billing', 'activity', 'summary', 'usage'])}`;
    const path = r.pick(p.files);
    const fn =
      p.lang === 'py' ? snake(['build', e.split(' ')[0], 'rows']) : camel(['build', e.split(' ')[0], 'rows']);
    const sc = SCENARIOS[i % SCENARIOS.length](r, p, e, path, fn);
    const s = c.session(p, Date.UTC(2026, 0, 12) + r.range(0, 280) * DAY + r.range(8, 18) * HOUR);
    const m = (name: string) => `coding-${i}-${name}`;
    s.user(sc.request, m('request'));
    s.assistant(s.g.interim(), {
      reasoning: s.g.reasoning(),
      tools: [
        grep(fn, p.dirs[0] ?? '.', `${path}:${r.range(10, 200)}:${fn}(`),
        read(path, s.g.code(10).join('\n')),
      ],
    });
    s.assistant(sc.decision, {
      mark: m('decision'),
      tools: [edit(path, s.g.code(2).join('\n'), s.g.code(3).join('\n'))],
    });
    s.assistant(s.g.interim(), { tools: [shell(p.commands.test, sc.error, 1)] });
    s.assistant(sc.explain, {
      mark: m('explain'),
      tools: [edit(path, s.g.code(1).join('\n'), s.g.code(2).join('\n'))],
    });
    s.assistant(s.g.interim(), { tools: [shell(p.commands.test, `${r.range(40, 300)} passed`, 0)] });
    s.user(sc.followUp, m('followUp'));
    s.assistant(s.g.interim(), { tools: [edit(path, s.g.code(1).join('\n'), s.g.code(4).join('\n'))] });
    s.assistant(sc.summary, {
      mark: m('summary'),
      tools: [shell(p.commands.test, `${r.range(40, 300)} passed`, 0)],
    });
    s.filler(r.range(1, 3));
    for (const [question, what] of sc.questions) c.ask({ kind: 'coding', question, marks: [m(what)] });
  }
}
