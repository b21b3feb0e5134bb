/**
 * Word lists for the synthetic corpus. Each list is ordered roughly most-common-first because the
 * generator samples them with a Zipf-like draw; together with identifiers and paths composed per
 * project they give BM25 a realistic long tail (tens of thousands of distinct tokens).
 */

function words(text: string): readonly string[] {
  return [...new Set(text.split(/\s+/).filter(Boolean))];
}

/** Business-domain nouns: what the code is about. */
export const DOMAIN_NOUNS = words(`
user order account payment cart product customer invoice price session event message file report
item email job task team project plan subscription discount coupon checkout shipment address
inventory stock warehouse refund charge balance transaction ledger transfer wallet tenant
organization member role permission invite notification webhook alert dashboard widget chart
comment post thread reply review rating tag category collection catalog listing search result
page tab modal form field button image avatar thumbnail upload attachment document template
layout theme locale translation currency tax region country timezone schedule calendar booking
reservation appointment slot ticket incident release backup export import feed playlist track
episode video recipe ingredient menu restaurant driver vehicle route trip fare rider courier
parcel label barcode sku variant bundle promotion campaign audience segment lead contact deal
quote contract signature approval milestone sprint estimate budget expense receipt payout
merchant vendor supplier partner affiliate referral reward badge level quest score leaderboard
match player game room lobby chat channel sticker reaction mention draft revision changelog
audit consent preference setting profile onboarding survey question answer quiz course lesson
enrollment student teacher grade assignment submission patient prescription claim policy
premium coverage loan mortgage portfolio position trade ticker candle watchlist sensor device
reading telemetry firmware location geofence tile marker shift roster timesheet payroll
employee department office desk meeting agenda note memo invoice_line order_item line_item
storefront basket wishlist review_queue moderation report_card forecast quota allowance
credit debit statement settlement dispute chargeback fraud risk score_card kyc identity
passport license permit inspection violation fine citation warranty repair part supplier_order
purchase_order manifest pallet dock container_slot bin pick pack wave carrier tracking
eta delivery pickup dropoff zone pricing tier seat license_key usage meter invoice_run
billing_cycle proration trial cancellation renewal churn cohort funnel conversion click
impression pageview visitor lead_score crm pipeline_stage opportunity territory forecast_line
article author editor publisher headline excerpt slug sitemap redirect banner carousel
newsletter digest reminder snooze inbox folder label_rule filter_rule signature_block
`);

/** Engineering nouns: what the code is made of. */
export const TECH_NOUNS = words(`
function component module service handler endpoint route middleware controller repository
client server worker queue cache database table column index schema migration query
transaction connection pool socket stream buffer promise callback hook reducer store state
context provider router config flag feature test fixture mock stub snapshot assertion suite
coverage benchmark build bundle chunk dependency package lockfile version branch commit
merge rebase conflict diff patch hunk pipeline workflow runner step container image volume
pod deployment cluster node replica shard partition offset cursor pagination limit timeout
retry backoff breaker fallback proxy gateway balancer certificate secret key credential scope
header cookie payload body response status code error exception warning log trace span metric
counter gauge histogram threshold sampler exporter collector agent daemon process thread lock
mutex semaphore goroutine coroutine scheduler cron timer interval listener emitter subscriber
publisher topic consumer producer broker envelope serializer parser lexer tokenizer encoder
decoder validator sanitizer formatter linter compiler transpiler bundler plugin loader
resolver adapter wrapper decorator factory builder singleton registry injector interceptor
guard pipe mapper transformer converter helper util constant enum interface type generic
union tuple record struct trait macro closure iterator generator slice vector array map set
heap tree graph edge vertex stack list property method constructor instance prototype class
object string number boolean integer float decimal date timestamp duration uuid hash checksum
nonce salt cipher digest blob bucket prefix path url uri host port domain subdomain redirect
request argument parameter option default fallback_value sentinel placeholder env variable
environment sandbox staging production preview region zone endpoint_group dns record
certificate_chain keystore truststore token_bucket sliding_window leaky_bucket debouncer
throttler memo selector action effect signal observable subject store_slice atom query_key
mutation resolver_map subscription_handler directive fragment persisted_query
dataloader batcher deduper outbox inbox saga orchestrator choreography event_bus
dead_letter_queue poison_message visibility_timeout ack nack heartbeat lease leader follower
quorum raft gossip vector_clock tombstone compaction vacuum analyze explain plan_node
seq_scan index_scan bitmap_heap hash_join nested_loop sort_key materialized_view trigger
stored_procedure sequence foreign_key constraint check_constraint unique_index partial_index
gin_index btree wal checkpoint replication_slot logical_decoding cdc connector sink source
`);

/**
 * Verbs. An entry is `base` for regular verbs, or `base:past:gerund` where spelling is irregular
 * (doubling, irregular past). The third person is derived.
 */
export const VERBS = words(`
add remove drop:dropped:dropping rename refactor extract inline move split:split:splitting
merge fix patch bump pin:pinned:pinning upgrade downgrade revert migrate seed cache invalidate
evict flush batch debounce throttle retry log:logged:logging trace profile measure benchmark
validate sanitize escape encode decode parse serialize hydrate memoize prefetch paginate sort
filter dedupe normalize index reindex shard replicate lock unlock guard wrap:wrapped:wrapping
unwrap:unwrapped:unwrapping mock stub:stubbed:stubbing assert skip:skipped:skipping
rewrite:rewrote:rewriting simplify wire expose hide:hid:hiding deprecate delete archive restore
replay rebuild:rebuilt:rebuilding compile ship:shipped:shipping deploy release tag:tagged:tagging
publish promote rotate revoke grant scope enforce check verify compare trim:trimmed:trimming
truncate pad:padded:padding format lint annotate document clean tidy reorder group aggregate
sum:summed:summing count compute calculate round convert cast coerce map:mapped:mapping reduce
collect emit:emitted:emitting dispatch handle catch:caught:catching throw:threw:throwing raise
swallow surface report alert notify queue schedule spawn kill restart reload refresh poll
subscribe unsubscribe listen bind:bound:binding attach detach mount unmount render stream pipe
buffer chunk compress decompress encrypt decrypt sign hash store fetch load save persist
write:wrote:writing read:read:reading open close reset clear update insert upsert select join
reconcile backfill run:ran:running build:built:building keep:kept:keeping find:found:finding
make:made:making send:sent:sending hold:held:holding get:got:getting set:set:setting
put:put:putting spin:spun:spinning break:broke:breaking choose:chose:choosing take:took:taking
swap:swapped:swapping scan:scanned:scanning plan:planned:planning strip:stripped:stripping
commit:committed:committing rerun:reran:rerunning bisect inspect instrument isolate reproduce
triage investigate diagnose debug:debugged:debugging harden tighten loosen relax widen narrow
shorten lengthen extend override replace introduce consolidate flatten nest:nested:nesting
inline_cache warm prune rebase squash cherry-pick vendor polyfill shim gate:gated:gating
`);

export const ADJECTIVES = words(`
stale flaky slow fast brittle idempotent async nullable optional required deprecated legacy
experimental internal public private global local remote shared cached dirty clean broken
missing duplicate empty invalid malformed expired pending active inactive disabled enabled
default custom explicit implicit strict lenient noisy quiet verbose redundant unused orphaned
dangling circular recursive lazy eager concurrent parallel sequential atomic partial incremental
full nightly weekly hourly daily temporary permanent primary secondary upstream downstream
transient intermittent deterministic random huge tiny large small heavy lightweight hot cold
warm readonly writable mutable immutable typed untyped generic specific raw encoded escaped
unescaped sorted unsorted paginated batched streaming blocking unicode multibyte negative
zero-length off-by-one out-of-order half-written truncated corrupted misconfigured unbounded
bounded leaky racy thread-safe non-deterministic backwards-compatible breaking minor major
outdated pinned floating transitive peer dev optional_dependency headless interactive noisy_neighbor
cross-tenant multi-region single-flight best-effort at-least-once exactly-once eventual strong
`);

export const ADVERBS = words(`
now already still only just again probably actually currently temporarily silently randomly
occasionally consistently intermittently eventually immediately lazily eagerly twice locally
`);

/** Libraries, frameworks and tools. */
export const LIBRARIES = words(`
react typescript node postgres redis docker vite jest vitest eslint prettier express next.js
prisma kubernetes webpack tailwind graphql zod axios lodash sqlite mongodb kafka rabbitmq nginx
terraform s3 lambda dynamodb cloudflare vercel sentry datadog prometheus grafana opentelemetry
pino winston fastify hono nestjs django flask fastapi pydantic sqlalchemy alembic celery pytest
poetry ruff mypy gin gorm cobra tokio serde axum clap cargo playwright cypress storybook esbuild
rollup turborepo pnpm yarn bun deno elasticsearch opensearch meilisearch typesense clickhouse
bigquery snowflake airflow dbt spark drizzle typeorm knex sequelize mongoose bullmq temporal grpc
protobuf openapi swagger helm argocd vault consul etcd minio date-fns dayjs luxon moment
tanstack-query swr zustand redux mobx vue svelte angular remix astro nuxt solid htmx alpine
jotai immer rxjs msw nock supertest testcontainers k6 locust puppeteer sharp ffmpeg pdfkit
handlebars nunjucks i18next formik react-hook-form yup joi ajv class-validator uvicorn gunicorn
pgbouncer memcached varnish haproxy traefik envoy istio linkerd jaeger loki tempo vector fluentbit
`);

export const VENDORS = words(`
stripe twilio sendgrid shopify hubspot salesforce zendesk mailgun paypal adyen plaid segment
intercom slack github gitlab okta auth0 algolia mapbox cloudinary contentful braintree
postmark docusign netsuite quickbooks xero klaviyo mixpanel amplitude launchdarkly pagerduty
`);

/** Real error codes first; projects add their own ERR_<NOUN>_<STATE> codes. */
export const ERROR_CODES = words(`
ECONNRESET ETIMEDOUT ECONNREFUSED ENOENT EADDRINUSE EACCES EPIPE ENOTFOUND EMFILE
ERR_MODULE_NOT_FOUND ERR_REQUIRE_ESM ERR_SOCKET_TIMEOUT ERR_STREAM_PREMATURE_CLOSE
ERR_INVALID_ARG_TYPE ERR_HTTP_HEADERS_SENT ERR_UNHANDLED_REJECTION ERR_OSSL_EVP_UNSUPPORTED
UND_ERR_CONNECT_TIMEOUT UND_ERR_HEADERS_TIMEOUT UND_ERR_SOCKET E11000 TS2345 TS2322 TS2339
TS7006 TS2307 TS18048 TS2532 TS2769 P2002 P2025 P1001 SQLITE_BUSY SQLITE_CONSTRAINT
SQLITE_LOCKED ER_LOCK_DEADLOCK ER_DUP_ENTRY ERR_PNPM_OUTDATED_LOCKFILE ELIFECYCLE ERESOLVE
E401 E403 E404 OOMKilled CrashLoopBackOff ImagePullBackOff ERR_CERT_AUTHORITY_INVALID
UNABLE_TO_VERIFY_LEAF_SIGNATURE DEPTH_ZERO_SELF_SIGNED_CERT ERR_TLS_CERT_ALTNAME_INVALID
ERR_ASSERTION ERR_IMPORT_ASSERTION_TYPE_MISSING ERR_UNKNOWN_FILE_EXTENSION ENOSPC ENOMEM
EBUSY EEXIST ENOTDIR EISDIR EPERM ERR_WORKER_OUT_OF_MEMORY ERR_BUFFER_OUT_OF_BOUNDS
ERR_OUT_OF_RANGE ERR_INVALID_URL ERR_INVALID_STATE ERR_STREAM_WRITE_AFTER_END
ERR_FR_TOO_MANY_REDIRECTS ERR_BAD_REQUEST ERR_NETWORK ERR_CANCELED ECONNABORTED
`);

/** Error-code suffixes for project-specific codes like ERR_CART_LOCKED. */
export const ERROR_STATES = words(`
NOT_FOUND LOCKED EXPIRED MISMATCH TIMEOUT CONFLICT INVALID UNAVAILABLE OVERFLOW REJECTED STALE
DUPLICATE FORBIDDEN TOO_LARGE UNSUPPORTED QUOTA_EXCEEDED NOT_READY CORRUPT
`);

export const CODENAMES = words(`
atlas beacon comet dune ember falcon glacier harbor ion juniper kestrel lumen meridian nimbus
orbit pylon quartz raven sierra tundra umbra vortex willow zephyr aurora basalt cinder delta
echo fjord granite helix indigo jasper kiln lagoon mosaic nova onyx prism quill ripple saffron
talon unison vesper wren yarrow zenith anvil birch cobalt drift ether flint grove heron iris
jade kelp lynx maple nectar oak pepper quasar reef slate thistle ursa violet walnut xenon yew
`);

export const PROJECT_SUFFIXES = words(`
api service web app worker dashboard cli sdk gateway admin portal backend frontend engine sync
bot importer exporter scheduler core ui infra pipeline
`);

export const PEOPLE = words(`
Priya Marcus Aisha Tomasz Elena Kenji Fatima Diego Ingrid Oluwaseun Mei Rafael Sanna Dmitri
Chloe Arjun Noor Lukas Beatriz Hamid Yuki Grace Mateo Zara Henrik Leila Anton Sofia Kwame Ines
Wei Gabriel Amara Nils Paloma Ravi Hana Oscar Freya Tariq Camille Jonas Adaeze Pavel Lucia
`);

export const CITIES = words(`
Auckland Honolulu Sydney Tokyo Kolkata Kathmandu Tehran Nairobi Lagos Lisbon Reykjavik Santiago
Caracas Anchorage Denver Chatham Adelaide Newfoundland
`);

export const MONTHS = words(
  `January February March April May June July August September October November December`,
);

/** General prose nouns that glue sentences together. */
export const GENERAL_NOUNS = words(`
approach idea reason problem issue case place time way part point thing change detail option
tradeoff downside question concern assumption behavior workaround hack shortcut fix cause root
symptom regression incident outage spike dip pattern habit convention guideline rule exception
risk cost benefit win loss gap hole edge corner path branch flow direction step phase pass round
attempt try guess theory hunch signal hint clue evidence proof example sample baseline target
budget deadline estimate scope backlog followup ticket handoff review feedback nit suggestion
`);

/** Plural for the irregular nouns in the lists; regular rules handle the rest. */
export const PLURALS: Readonly<Record<string, string>> = {
  data: 'data',
  metadata: 'metadata',
  telemetry: 'telemetry',
  inventory: 'inventories',
  stock: 'stock',
  feedback: 'feedback',
  child: 'children',
  person: 'people',
  index: 'indexes',
  status: 'statuses',
  matrix: 'matrices',
  payroll: 'payrolls',
};
