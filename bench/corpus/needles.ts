/**
 * Needles: one step somewhere in the corpus states a specific decision or fact; the question asks
 * for it the way a person would type it, sharing only some of the words (a different word form,
 * an identifier, an error code, or a bare keyword query). Distractor sentences reuse the same
 * words in other sessions so that matching a single word is not enough.
 */
import { CITIES, CODENAMES, MONTHS, PEOPLE, VENDORS } from './lexicon.js';
import type { TextGen } from './text.js';
import { cap, ident, kebab, snake } from './world.js';

export type QuestionKind = 'question' | 'keyword';

export interface NeedleDraft {
  /** Uniqueness key: two needles with the same key would make a question ambiguous. */
  key: string;
  role: 'user' | 'assistant';
  /** The sentence that answers the question (appears verbatim in the step). */
  statement: string;
  questions: [string, QuestionKind][];
  distractors: string[];
}

type Maker = (g: TextGen) => NeedleDraft;

const pick = <T>(g: TextGen, items: readonly T[]): T => g.r.pick(items);
const noun = (g: TextGen) => g.r.zipf(g.p.modules).replace(/_/g, ' ');
const otherNoun = (g: TextGen, not: string) => {
  for (let i = 0; i < 5; i++) {
    const n = g.w('n');
    if (n !== not) return n;
  }
  return `${not} history`;
};
const table = (g: TextGen) => snake([`${g.r.zipf(g.p.modules)}s`]);
const endpoint = (g: TextGen) =>
  `${pick(g, ['GET ', 'GET ', ''])}/api/${kebab([g.r.zipf(g.p.modules)])}/${pick(g, ['summary', 'stats', 'report', 'overview', 'totals', 'search', 'export'])}`;
const service = (g: TextGen) =>
  `${g.p.name.split('-')[0]}-${pick(g, ['api', 'web', 'admin', 'gateway', 'worker'])}`;

const MAKERS: Maker[] = [
  (g) => {
    const store = pick(g, ['Redis', 'Memcached', 'Varnish', 'Hazelcast', 'KeyDB', 'Dragonfly']);
    const n = noun(g);
    const attr = pick(g, [
      'prices',
      'balances',
      'quotas',
      'stock levels',
      'exchange rates',
      'shipping rates',
      'tax rates',
    ]);
    const trigger = pick(g, [
      'promotions were edited',
      'a bulk import finished',
      'the nightly repricing job ran',
      'admins changed a tier',
    ]);
    const n2 = otherNoun(g, n);
    return {
      key: `cache:${store}:${n}:${attr}`,
      role: 'assistant',
      statement: `We dropped the ${store} cache for ${n} ${attr} because invalidation kept serving stale totals after ${trigger}; reads now go straight to Postgres with a covering index.`,
      questions: [
        [`why did we drop the ${store.toLowerCase()} cache for ${n} ${attr}?`, 'question'],
        [`why did we stop caching ${n} ${attr}`, 'question'],
        [`${store} cache stale ${attr}`, 'keyword'],
      ],
      distractors: [
        `Could a ${store} cache in front of the ${n2} lookups help here? The p99 is around ${g.w('ms')} ms.`,
        `The ${store} container restarts whenever the ${n2} import runs, probably memory limits.`,
        `Stale ${n} ${attr} showed up in the admin view once, but that was a rendering bug in the table component.`,
      ],
    };
  },
  (g) => {
    const code = pick(g, [
      'ERR_SOCKET_TIMEOUT',
      'ETIMEDOUT',
      'ECONNRESET',
      'UND_ERR_HEADERS_TIMEOUT',
      'ERR_STREAM_PREMATURE_CLOSE',
      'EPIPE',
    ]);
    const vendor = pick(g, VENDORS);
    return {
      key: `sock:${code}:${vendor}`,
      role: 'assistant',
      statement: `The ${code} errors on the ${vendor} webhook were the load balancer closing idle keep-alive sockets after 60 seconds while our server kept them for 5; raising keepAliveTimeout to 65 seconds in ${g.path()} made them disappear.`,
      questions: [
        [`${code} ${vendor} webhook`, 'keyword'],
        [`how did we fix the ${code} errors from the ${vendor} webhook?`, 'question'],
        [`what was causing ${code} on ${vendor} webhooks`, 'question'],
      ],
      distractors: [
        `${code} also shows up when the VPN drops, so ignore the ones from ${pick(g, PEOPLE)}'s laptop.`,
        `The ${vendor} webhook handler validates the signature before parsing the body.`,
        `Bumped the ${vendor} SDK; their changelog mentions keep-alive defaults but nothing that affects us.`,
      ],
    };
  },
  (g) => {
    const brokers = ['RabbitMQ', 'Kafka', 'SQS', 'BullMQ', 'NATS', 'Redis Streams', 'Pub/Sub'];
    const a = pick(g, brokers);
    const b = pick(
      g,
      brokers.filter((x) => x !== a),
    );
    const n = noun(g);
    return {
      key: `queue:${n}:${b}`,
      role: 'assistant',
      statement: `Going with ${a} instead of ${b} for the ${n} queue: ${b} could not guarantee per-tenant ordering without one partition per customer, and we have ${g.w('big')} tenants.`,
      questions: [
        [`why didn't we use ${b} for the ${n} queue?`, 'question'],
        [`${n} queue ordering ${b}`, 'keyword'],
        [`what did we choose instead of ${b} for ${n}?`, 'question'],
      ],
      distractors: [
        `${b} consumer lag on the ${otherNoun(g, n)} topic is back under a second.`,
        `Per-tenant rate limits are configured in the gateway, not in the ${n} queue.`,
      ],
    };
  },
  (g) => {
    const n = noun(g);
    const k = g.r.range(3, 8);
    const capS = pick(g, [30, 45, 60, 90, 120]);
    const vendor = pick(g, VENDORS);
    return {
      key: `retry:${n}`,
      role: 'assistant',
      statement: `Settled on ${k} retries for ${n} sync, with exponential backoff capped at ${capS} seconds; anything more aggressive tripped ${vendor}'s rate limiter and got our key throttled for an hour.`,
      questions: [
        [`how many retries did we settle on for ${n} sync?`, 'question'],
        [`what's the backoff cap for ${n} sync retries`, 'question'],
        [`${n} sync retry ${vendor} rate limit`, 'keyword'],
      ],
      distractors: [
        `The ${vendor} rate limiter resets every minute according to their docs.`,
        `Sync for ${otherNoun(g, n)} still uses a fixed ${g.w('ms')} ms delay between attempts.`,
      ],
    };
  },
  (g) => {
    const old = g.fn();
    const n = noun(g);
    const nw = ident(g.p.lang, [
      pick(g, ['reconcile', 'settle', 'resolve', 'apply']),
      n,
      pick(g, ['batch', 'entries', 'state']),
    ]);
    return {
      key: `rename:${old}`,
      role: 'assistant',
      statement: `Renamed \`${old}\` to \`${nw}\` because it now also reconciles ${n} ${pick(g, ['adjustments', 'credits', 'reversals'])} coming from the ${otherNoun(g, n)} export; the old name stays as a deprecated alias until the next release.`,
      questions: [
        [`what was ${old} renamed to?`, 'question'],
        [`${old} rename`, 'keyword'],
        [`why did ${old} get a new name`, 'question'],
      ],
      distractors: [
        `\`${old}\` is also called from the admin script, keep that in mind.`,
        `I'd rather not rename \`${g.fn()}\` right now, it touches too many files.`,
      ],
    };
  },
  (g) => {
    const tp = g.testPath();
    const base = tp.split('/').pop() ?? tp;
    const fake = pick(g, [
      'vi.useFakeTimers()',
      'jest.useFakeTimers()',
      'freezegun',
      'a fixed Clock injected through the constructor',
    ]);
    const mod = tp.split('/').at(-2) ?? g.p.name;
    return {
      key: `flaky:${tp}`,
      role: 'assistant',
      statement: `The flaky test in ${tp} depended on the wall clock: it failed whenever CI ran within a few minutes of midnight UTC. I froze time with ${fake} and it has passed ${g.r.range(150, 500)} runs in a row.`,
      questions: [
        [`why was ${base} flaky?`, 'question'],
        [`flaky test midnight ${base}`, 'keyword'],
        [`how did we fix the flaky ${mod.replace(/_/g, ' ')} test around midnight`, 'question'],
      ],
      distractors: [
        `${g.testPath()} is flaky on CI too, but that one is a port conflict.`,
        `Midnight UTC is also when the ${noun(g)} rollup job starts.`,
      ],
    };
  },
  (g) => {
    const name = pick(g, CODENAMES);
    const mod = noun(g);
    return {
      key: `sandbox:${mod}`,
      role: 'user',
      statement: `Please never run the ${mod} migrations against the shared staging database again. Use the ${name} sandbox (${name}-db.internal:5432) and ask me before touching staging.`,
      questions: [
        [`where should the ${mod} migrations run?`, 'question'],
        [`${mod} migrations sandbox staging`, 'keyword'],
      ],
      distractors: [
        `The staging database was refreshed from a snapshot on ${pick(g, MONTHS)} 3rd.`,
        `${cap(name)} is also the name of the ${otherNoun(g, mod)} importer, don't confuse them.`,
      ],
    };
  },
  (g) => {
    const n = noun(g);
    const ep = endpoint(g);
    return {
      key: `mview:${ep}`,
      role: 'assistant',
      statement: `Moving the ${n} aggregation into a materialized view that refreshes every ${g.r.range(2, 15)} minutes cut the p95 of ${ep} from ${g.r.range(1200, 9000)} ms to ${g.r.range(40, 400)} ms.`,
      questions: [
        [`what made ${ep} faster?`, 'question'],
        [`materialized view p95 ${n}`, 'keyword'],
        [`how did we speed up the ${n} aggregation`, 'question'],
      ],
      distractors: [
        `${ep} also returns ${otherNoun(g, n)} counts, those are computed on the fly.`,
        `A materialized view for ${otherNoun(g, n)} would need a unique index to refresh concurrently.`,
      ],
    };
  },
  (g) => {
    const n = noun(g);
    const job = ident(g.p.lang, [
      pick(g, ['send', 'dispatch', 'notify']),
      n,
      pick(g, ['digest', 'reminders', 'summary']),
    ]);
    return {
      key: `dupemail:${n}`,
      role: 'assistant',
      statement: `The duplicate ${n} emails came from the ${job} cron running on both replicas after the scale-up; it now takes a Postgres advisory lock before sending, so only one pod does the work.`,
      questions: [
        [`why were people getting duplicate ${n} emails?`, 'question'],
        [`${job} advisory lock`, 'keyword'],
        [`duplicate ${n} email cause`, 'keyword'],
      ],
      distractors: [
        `The ${otherNoun(g, n)} emails use a different template engine, so leave them alone.`,
        `We scaled the ${n} workers to three replicas for the launch.`,
      ],
    };
  },
  (g) => {
    const pkg = pick(g, [
      'date-fns',
      'luxon',
      'dayjs',
      'moment',
      'pydantic',
      'sqlalchemy',
      'papaparse',
      'csv-stringify',
      'fast-csv',
      'pandas',
      'chrono',
    ]);
    const n = noun(g);
    const v1 = `${g.r.range(1, 4)}.${g.r.range(0, 20)}.${g.r.range(0, 9)}`;
    return {
      key: `pin:${pkg}`,
      role: 'assistant',
      statement: `Pinned ${pkg} to ${v1} because the next minor changed how dates are serialized (local time instead of UTC) and broke the ${n} CSV export.`,
      questions: [
        [`why is ${pkg} pinned?`, 'question'],
        [`${pkg} pin ${v1}`, 'keyword'],
        [`what broke the ${n} csv export dates`, 'question'],
      ],
      distractors: [
        `${pkg} is also used by the ${otherNoun(g, n)} report, but only for formatting.`,
        `The CSV export for ${otherNoun(g, n)} streams rows so memory stays flat.`,
      ],
    };
  },
  (g) => {
    const mod = g.r.zipf(g.p.modules);
    const flag = snake([mod, pick(g, ['v2', 'reconciliation', 'new_pricing', 'bulk_edit', 'async_export'])]);
    const person = pick(g, PEOPLE);
    const n = noun(g);
    return {
      key: `flag:${flag}`,
      role: 'assistant',
      statement: `The ${flag} feature flag stays off in production until ${person} signs off on the ${n} reconciliation numbers from the dry run.`,
      questions: [
        [`who needs to sign off before we enable ${flag}?`, 'question'],
        [`${flag} flag production`, 'keyword'],
      ],
      distractors: [
        `${person} is out until Thursday, so reviews go to someone else.`,
        `Flags are evaluated per request in the ${otherNoun(g, n)} middleware.`,
      ],
    };
  },
  (g) => {
    const city = pick(g, CITIES);
    const n = noun(g);
    return {
      key: `tz:${n}`,
      role: 'assistant',
      statement: `${cap(n)} reports were off by one day for accounts in ${city} because we truncated timestamps to the UTC date before converting to the account's timezone; \`${g.fn()}\` now converts first and truncates second.`,
      questions: [
        [`why were ${n} reports off by one day?`, 'question'],
        [`${city} timezone ${n} report`, 'keyword'],
        [`${n} report shows the wrong date in ${city}`, 'question'],
      ],
      distractors: [
        `The ${otherNoun(g, n)} report is generated at 02:00 UTC every day.`,
        `${city} customers asked for invoices in their local currency too.`,
      ],
    };
  },
  (g) => {
    const worker = kebab([
      g.r.zipf(g.p.modules),
      pick(g, ['sync', 'import', 'export', 'events', 'notifications']),
    ]);
    return {
      key: `leak:${worker}`,
      role: 'assistant',
      statement: `The ${worker} worker leaked memory because every request registered a new listener on the shared EventEmitter; moving the subscription to module scope flattened RSS at about ${g.r.range(120, 600)} MB.`,
      questions: [
        [`what caused the memory leak in the ${worker} worker?`, 'question'],
        [`EventEmitter listener leak ${worker}`, 'keyword'],
      ],
      distractors: [
        `RSS on the ${worker} worker climbs during imports but drops back after GC.`,
        `MaxListenersExceededWarning showed up once in the ${noun(g)} tests, unrelated.`,
      ],
    };
  },
  (g) => {
    const vault = pick(g, [
      'Vault',
      'AWS Secrets Manager',
      '1Password Connect',
      'Doppler',
      'GCP Secret Manager',
    ]);
    const vendor = pick(g, VENDORS);
    const month = pick(g, MONTHS);
    return {
      key: `secret:${vendor}`,
      role: 'assistant',
      statement: `We decided to keep the ${vendor} API keys in ${vault} instead of .env files after the ${month} incident where a key ended up in a CI log.`,
      questions: [
        [`where do we keep the ${vendor} api keys now?`, 'question'],
        [`${vendor} api key storage`, 'keyword'],
      ],
      distractors: [
        `The ${vendor} sandbox key has limited scopes, it's fine for local dev.`,
        `${month} was also when we moved CI runners.`,
      ],
    };
  },
  (g) => {
    const ep = endpoint(g);
    const t = table(g);
    return {
      key: `keyset:${ep}`,
      role: 'assistant',
      statement: `Switched ${ep} from offset pagination to keyset pagination on (created_at, id) because page ${g.r.range(200, 900)} took ${g.r.range(4, 30)} seconds on the ${t} table.`,
      questions: [
        [`why did we switch ${ep} to keyset pagination?`, 'question'],
        [`keyset pagination ${t}`, 'keyword'],
        [`why was paging through ${t} so slow`, 'question'],
      ],
      distractors: [
        `The ${table(g)} endpoint still uses offset pagination, it's small.`,
        `created_at is not unique, so sort by id as a tiebreaker.`,
      ],
    };
  },
  (g) => {
    const t = table(g);
    const col = snake([g.w('t'), pick(g, ['id', 'status', 'version', 'flags'])]);
    const migName = `add_${col}_to_${t}`;
    const two = (x: number) => String(x).padStart(2, '0');
    const migId = `2025${two(g.r.range(1, 12))}${two(g.r.range(1, 28))}_${two(g.r.range(0, 23))}${two(g.r.range(0, 59))}`;
    return {
      key: `rollback:${migName}`,
      role: 'assistant',
      statement: `Rolled back migration ${migId}_${migName} because the NOT NULL default on ${t}.${col} locked the table for ${g.r.range(3, 25)} minutes in production.`,
      questions: [
        [`why was the ${migName} migration rolled back?`, 'question'],
        [`${t} ${col} migration lock`, 'keyword'],
      ],
      distractors: [
        `Migration ${migId}_add_index_to_${table(g)} ran fine in staging.`,
        `Adding ${col} to ${table(g)} is next on the list.`,
      ],
    };
  },
  (g) => {
    const pairs: Record<string, [string, string][]> = {
      ts: [
        ['moment', 'date-fns'],
        ['request', 'undici'],
        ['node-fetch', 'native fetch'],
        ['winston', 'pino'],
        ['yup', 'zod'],
        ['express-validator', 'zod'],
      ],
      py: [
        ['requests', 'httpx'],
        ['marshmallow', 'pydantic'],
        ['arrow', 'pendulum'],
      ],
      go: [
        ['logrus', 'slog'],
        ['gorilla/mux', 'chi'],
      ],
      rs: [
        ['failure', 'thiserror'],
        ['chrono', 'time'],
      ],
    };
    const [a, b] = pick(g, pairs[g.p.lang]);
    const n = noun(g);
    return {
      key: `swap:${a}:${n}`,
      role: 'assistant',
      statement: `Replaced ${a} with ${b} in the ${n} module; ${a}'s mutable ${pick(g, ['date objects', 'config objects', 'global agent'])} were leaking state between requests.`,
      questions: [
        [`why did we replace ${a} in the ${n} module?`, 'question'],
        [`${a} ${b} ${n}`, 'keyword'],
      ],
      distractors: [
        `${a} is still a transitive dependency via the ${otherNoun(g, n)} package.`,
        `${b} needs a newer runtime than we had last year.`,
      ],
    };
  },
  (g) => {
    const svc = service(g);
    return {
      key: `image:${svc}`,
      role: 'assistant',
      statement: `The Docker image for the ${svc} service shrank from ${g.r.range(600, 1400)} MB to ${g.r.range(80, 250)} MB after switching to a distroless base and copying only production dependencies into the final stage.`,
      questions: [
        [`how did we make the ${svc} docker image smaller?`, 'question'],
        [`distroless ${svc} image size`, 'keyword'],
      ],
      distractors: [
        `The ${svc} image build on CI takes about ${g.r.range(3, 12)} minutes with layer caching.`,
        `The ${noun(g)} service image still builds from the full base because it needs a shell.`,
      ],
    };
  },
  (g) => {
    const host = `${pick(g, ['app', 'admin', 'partners', 'dashboard', 'beta'])}.${pick(g, CODENAMES)}.${pick(g, ['io', 'dev', 'com'])}`;
    return {
      key: `cors:${host}`,
      role: 'assistant',
      statement: `Requests from https://${host} were being blocked because the CORS middleware compared origins including a trailing slash; \`${g.fn()}\` now normalizes both sides before matching.`,
      questions: [
        [`why was ${host} blocked by cors?`, 'question'],
        [`cors trailing slash ${host}`, 'keyword'],
      ],
      distractors: [
        `https://${host} also needs the new CSP header for the ${noun(g)} widget.`,
        `CORS preflight caching is set to ten minutes.`,
      ],
    };
  },
  (g) => {
    const plan = pick(g, ['Growth', 'Scale', 'Enterprise', 'Partner', 'Pro', 'Team', 'Starter']);
    const k = pick(g, [60, 120, 300, 600]);
    return {
      key: `rate:${plan}`,
      role: 'assistant',
      statement: `Public API rate limit is ${k} requests per minute per key with a burst of ${k / 6}; customers on the ${plan} plan get ${k * 5}.`,
      questions: [
        [`what's the api rate limit for the ${plan} plan?`, 'question'],
        [`rate limit burst ${plan}`, 'keyword'],
      ],
      distractors: [
        `The ${plan} plan also includes SSO and audit exports.`,
        `Rate limit headers are returned on every response.`,
      ],
    };
  },
  (g) => {
    const lib = pick(g, ['zod', 'pydantic', 'joi', 'valibot', 'ajv']);
    const layer = pick(g, ['service', 'repository', 'controller', 'domain']);
    const n = noun(g);
    return {
      key: `validation:${n}`,
      role: 'user',
      statement: `I'd rather keep ${n} validation in ${lib} schemas next to the routes, not in the ${layer} layer, so please don't move it again.`,
      questions: [
        [`where should ${n} validation live?`, 'question'],
        [`${n} validation ${lib} routes`, 'keyword'],
      ],
      distractors: [
        `The ${otherNoun(g, n)} validation errors should return 422, not 400.`,
        `${lib} schemas for ${otherNoun(g, n)} are generated from the OpenAPI spec.`,
      ],
    };
  },
  (g) => {
    const f1 = g.fn();
    const f2 = g.fn();
    const t1 = table(g);
    let t2 = table(g);
    if (t2 === t1) t2 = `${t1.replace(/s$/, '')}_events`;
    return {
      key: `deadlock:${f1}`,
      role: 'assistant',
      statement: `The deadlock in \`${f1}\` came from locking ${t1} then ${t2} while \`${f2}\` locked them in the opposite order; both now lock ${t1} first.`,
      questions: [
        [`what caused the deadlock in ${f1}?`, 'question'],
        [`deadlock ${t1} ${t2}`, 'keyword'],
      ],
      distractors: [
        `\`${f1}\` also retries on serialization failures.`,
        `The ${t1} table has ${g.w('big')} thousand rows in production.`,
      ],
    };
  },
  (g) => {
    const n = noun(g);
    const f = g.fn();
    return {
      key: `round:${n}`,
      role: 'assistant',
      statement: `${cap(n)} totals were off by a cent because \`${f}\` rounded each line before summing; it now sums exact decimals and rounds once at the end with banker's rounding.`,
      questions: [
        [`why were ${n} totals off by a cent?`, 'question'],
        [`banker's rounding ${f}`, 'keyword'],
      ],
      distractors: [
        `${cap(otherNoun(g, n))} totals include tax, the ${n} ones don't.`,
        `Rounding in the ${n} UI is display-only.`,
      ],
    };
  },
  (g) => {
    const svc = service(g);
    const other = pick(g, ['Grafana', 'the Jupyter server', 'MinIO', 'the docs site', 'Keycloak']);
    return {
      key: `port:${svc}`,
      role: 'assistant',
      statement: `The ${svc} dev server moved to port ${g.r.range(3001, 9999)} because ${other} already binds ${pick(g, [3000, 8080, 5173])} on the shared dev box.`,
      questions: [
        [`what port does the ${svc} dev server use?`, 'question'],
        [`${svc} dev server port`, 'keyword'],
      ],
      distractors: [
        `${cap(other)} on the shared dev box is restarted every night.`,
        `The ${svc} dev server proxies /api to the backend.`,
      ],
    };
  },
  (g) => {
    const db = pick(g, ['Postgres', 'MySQL', 'MongoDB', 'Redis', 'Elasticsearch']);
    const n = noun(g);
    return {
      key: `ci:${n}`,
      role: 'assistant',
      statement: `CI was timing out because the ${n} integration tests started a fresh ${db} container per test file; sharing one container through globalSetup cut the job from ${g.r.range(25, 60)} to ${g.r.range(6, 15)} minutes.`,
      questions: [
        [`why were the ${n} integration tests so slow on CI?`, 'question'],
        [`globalSetup ${db} container ${n}`, 'keyword'],
      ],
      distractors: [
        `The ${otherNoun(g, n)} integration tests need ${db} with the pgvector extension.`,
        `CI runners have 4 cores and 16 GB.`,
      ],
    };
  },
  (g) => {
    const engine = pick(g, ['Elasticsearch', 'Meilisearch', 'Typesense', 'Algolia', 'OpenSearch']);
    const n = noun(g);
    return {
      key: `debounce:${n}`,
      role: 'assistant',
      statement: `Search-as-you-type on the ${n} page now debounces at ${pick(g, [250, 300, 350, 400])} ms; at 150 ms we were sending ${engine} a query per keystroke.`,
      questions: [
        [`what debounce did we pick for ${n} search?`, 'question'],
        [`${n} search debounce ${engine}`, 'keyword'],
      ],
      distractors: [
        `${engine} index for ${otherNoun(g, n)} is rebuilt nightly.`,
        `The ${n} page shows a spinner while results load.`,
      ],
    };
  },
  (g) => {
    const svc = service(g);
    return {
      key: `jwt:${svc}`,
      role: 'assistant',
      statement: `We chose short-lived JWTs (${pick(g, [5, 10, 15])} minutes) with rotating refresh tokens in an httpOnly cookie instead of server sessions, so the ${svc} API can scale out without sticky sessions.`,
      questions: [
        [`why did ${svc} go with jwts instead of sessions?`, 'question'],
        [`${svc} refresh token httpOnly cookie`, 'keyword'],
      ],
      distractors: [
        `Sticky sessions are still enabled on the ${service(g)} load balancer.`,
        `Refresh tokens for mobile clients live in the keychain.`,
      ],
    };
  },
  (g) => {
    const n = noun(g);
    const company = `${cap(pick(g, CODENAMES))} ${pick(g, ['Labs', 'Health', 'Logistics', 'Foods', 'Capital'])}`;
    return {
      key: `retention:${n}`,
      role: pick(g, ['user', 'assistant'] as const),
      statement: `${cap(n)} audit logs are kept for ${pick(g, [90, 180, 365, 400, 730])} days and then moved to ${pick(g, ['S3 Glacier', 'cold storage in GCS', 'Azure Archive'])}; legal asked for that after the data deletion request from ${company}.`,
      questions: [
        [`how long do we keep ${n} audit logs?`, 'question'],
        [`${n} audit log retention`, 'keyword'],
      ],
      distractors: [
        `${cap(otherNoun(g, n))} audit logs include the actor and the IP address.`,
        `${company} renewed their contract last month.`,
      ],
    };
  },
  (g) => {
    const code = pick(g, [
      'ERR_PNPM_OUTDATED_LOCKFILE',
      'ERESOLVE',
      'EINTEGRITY',
      'ERR_PNPM_LOCKFILE_BREAKING_CHANGE',
    ]);
    const cmd = g.p.lang === 'ts' ? g.p.commands.install : 'pnpm install';
    return {
      key: `lock:${code}`,
      role: 'assistant',
      statement: `When \`${cmd}\` fails with ${code} on CI, the lockfile was generated by a newer package manager; regenerate it with the version pinned in packageManager instead of deleting node_modules.`,
      questions: [
        [`what to do when ${cmd} fails with ${code}?`, 'question'],
        [`${code} lockfile`, 'keyword'],
      ],
      distractors: [
        `${code} happened once locally after switching branches, a clean checkout fixed it.`,
        `The packageManager field pins the version for corepack.`,
      ],
    };
  },
  (g) => {
    const ep = endpoint(g);
    const f = g.fn();
    return {
      key: `nplus1:${ep}`,
      role: 'assistant',
      statement: `The slowness in ${ep} was an N+1: \`${f}\` loaded ${g.w('ns')} one at a time; a single query with IN (...) through a DataLoader fixed it.`,
      questions: [
        [`why was ${ep} slow?`, 'question'],
        [`N+1 ${f}`, 'keyword'],
      ],
      distractors: [
        `${ep} is cached for thirty seconds at the edge.`,
        `DataLoader batches are per request, so nothing leaks across tenants.`,
      ],
    };
  },
  (g) => {
    const vendor = pick(g, VENDORS);
    return {
      key: `encoding:${vendor}`,
      role: 'assistant',
      statement: `CSV imports from ${vendor} broke on names with umlauts because their export is Windows-1252, not UTF-8; \`${g.fn()}\` now sniffs the encoding before parsing.`,
      questions: [
        [`why did the ${vendor} csv import break on special characters?`, 'question'],
        [`${vendor} csv encoding windows-1252`, 'keyword'],
      ],
      distractors: [
        `The ${vendor} export also has a trailing empty column.`,
        `UTF-8 BOMs are stripped by the upload handler before the ${noun(g)} import.`,
      ],
    };
  },
  (g) => {
    const n = noun(g);
    return {
      key: `ws:${n}`,
      role: 'assistant',
      statement: `The ${n} dashboard websocket dropped every ${pick(g, [30, 45, 60])} seconds behind the corporate proxy, so the client now sends a ping every ${pick(g, [15, 20, 25])} seconds to keep it alive.`,
      questions: [
        [`why did the ${n} dashboard websocket keep disconnecting?`, 'question'],
        [`${n} websocket ping proxy`, 'keyword'],
      ],
      distractors: [
        `The ${otherNoun(g, n)} dashboard uses polling, not websockets.`,
        `The corporate proxy also strips the Authorization header on redirects.`,
      ],
    };
  },
  (g) => {
    const n = noun(g);
    const browser = pick(g, ['Safari 14', 'Firefox ESR 91', 'Chrome 90', 'Samsung Internet 14']);
    return {
      key: `browser:${n}`,
      role: 'user',
      statement: `Let's not bother supporting ${browser} in the ${n} editor; analytics show under 0.3% of sessions, so drop the polyfills for it.`,
      questions: [
        [`are we still supporting ${browser.toLowerCase()} in the ${n} editor?`, 'question'],
        [`${browser} ${n} editor polyfills`, 'keyword'],
      ],
      distractors: [
        `The ${otherNoun(g, n)} editor autosaves every ten seconds.`,
        `Polyfills are loaded conditionally through the module/nomodule split.`,
      ],
    };
  },
  (g) => {
    const person = pick(g, PEOPLE);
    const n = noun(g);
    const f = g.fn();
    return {
      key: `owner:${f}`,
      role: 'user',
      statement: `${person} owns the ${n} ${pick(g, ['service', 'module', 'worker', 'pipeline', 'integration', 'importer'])} now, so anything that touches \`${f}\` needs their review before merging.`,
      questions: [
        [`who reviews changes to ${f}?`, 'question'],
        [`${f} owner review`, 'keyword'],
      ],
      distractors: [
        `${person} wrote most of the ${otherNoun(g, n)} tests.`,
        `\`${f}\` is covered by the nightly end-to-end run.`,
      ],
    };
  },
];

/** Number of needle templates. */
export const NEEDLE_TEMPLATES = MAKERS.length;

/** Build the `index`-th needle's draft from template `template` with the session's TextGen. */
export function draftNeedle(g: TextGen, template: number): NeedleDraft {
  return MAKERS[template % MAKERS.length](g);
}
