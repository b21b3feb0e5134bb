/**
 * The one naming of every JSON document Tapedeck hands out — the CLI's `--json` and the HTTP API's
 * answers — applied at each output edge: the
 * search contract's snake_case, a thread referred to as `thread` wherever it appears (a record's
 * own identifier stays `id`), and an empty field as `null` — never a missing key or "".
 *
 * Services keep their domain shapes (camelCase records from the stores, snake_case results from
 * newer services); this maps them once, by an explicit key table rather than a blind case
 * conversion, so data that happens to sit in a key (an agent id, user metadata) is never renamed.
 */

/** Domain field → JSON name. Every camelCase field a command can print is listed here. */
const KEY_NAMES: Readonly<Record<string, string>> = {
  // a reference to a thread, whoever spells it
  threadId: 'thread',
  thread_id: 'thread',
  // the thread a sidechain or handoff branched from (saved threads already say parent_id)
  parentId: 'parent_id',
  // thread records
  sessionId: 'session_id',
  startedAt: 'started_at',
  updatedAt: 'updated_at',
  stepCount: 'step_count',
  // set by the history work when a thread's transcript went away
  sourceGone: 'source_gone',
  // the transcript archive (stats, doctor) and the retention guard (doctor, install claude-code)
  originalBytes: 'original_bytes',
  cleanupPeriodDays: 'cleanup_period_days',
  dueWithin7Days: 'due_within_7_days',
  notArchived: 'not_archived',
  // stats and doctor
  perAgent: 'per_agent',
  lastUpdated: 'last_updated',
  dbBytes: 'db_bytes',
  filesOnDisk: 'files_on_disk',
  filesIndexed: 'files_indexed',
};

/**
 * Fields a record always carries, `null` when unknown; a record is recognised by a field only it
 * has. (The stores leave an unknown project, title or tool out; a script should not have to tell
 * "absent" from "unknown".)
 */
const RECORD_FIELDS: ReadonlyArray<{ marker: string; fields: readonly string[] }> = [
  // a transcript thread (ThreadRecord)
  { marker: 'sessionId', fields: ['project', 'title', 'startedAt', 'updatedAt', 'parentId', 'sourceGone'] },
  // a transcript step (StepRecord)
  { marker: 'threadId', fields: ['tool', 'target', 'timestamp'] },
];

/** Values that are the user's own data: passed through untouched, keys and all. */
const DATA_KEYS = new Set(['metadata']);

/** Text whose emptiness is meaningful (an empty file, an empty body): "" stays "". */
const TEXT_KEYS = new Set(['content', 'text', 'body', 'markdown', 'snippet', 'query', 'before', 'after']);

/** The JSON document for a command's result: the naming above applied all the way down. */
export function toJsonDocument(value: unknown): unknown {
  return convert(value, undefined);
}

function convert(value: unknown, key: string | undefined): unknown {
  if (value === undefined) return null;
  if (value === '' && !(key && TEXT_KEYS.has(key))) return null;
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => convert(v, key));
  if (value instanceof Date) return value.toISOString();
  const record = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(record)) {
    const name = KEY_NAMES[k] ?? k;
    out[name] = DATA_KEYS.has(k) ? v : convert(v, k);
  }
  for (const { marker, fields } of RECORD_FIELDS)
    if (marker in record)
      for (const f of fields) {
        const name = KEY_NAMES[f] ?? f;
        if (!(name in out)) out[name] = null;
      }
  return out;
}
