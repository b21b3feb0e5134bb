/**
 * Secret redaction, applied to every piece of text before it is stored or indexed.
 *
 * A secret becomes `[REDACTED:<kind>]`. The name or context around it stays (the `API_KEY=` of a dotenv
 * line, the `Bearer ` of a header, the scheme, user and host of a URL), so the text is still searchable.
 *
 * Design, because this runs on every transcript step while indexing:
 * - Two regexes find every candidate, merged by position: one for token prefixes and fixed markers
 *   (`ghp_`, `-----BEGIN`, `://`, `Bearer`), one for secret-ish words (`token`, `password`). Each has few
 *   first characters to look for, so text with no candidate costs two quick scans and nothing else (one
 *   regex with every trigger scans several times slower). Each hit is judged by small hand-written
 *   parsers that look a bounded distance around it, and scanning resumes after what they consumed: the
 *   work stays linear and nothing can backtrack catastrophically (token rules only start where a token
 *   run starts, and every quantifier is bounded).
 * - A specific token kind wins over a context kind: `OPENAI_API_KEY=sk-…` becomes
 *   `OPENAI_API_KEY=[REDACTED:openai-key]`, not `[REDACTED:dotenv]`.
 * - No rule matches the marker itself, so `redact` is idempotent.
 *
 * Decisions on ambiguous cases (the tests pin each one):
 * - Stripe publishable keys (`pk_live_…`, `pk_test_…`) are public by design and are kept.
 * - Placeholders are kept: `<your-api-key>`, `${TOKEN}`, `{{ token }}`, `$TOKEN`, `%TOKEN%`, masks such as
 *   `xxxx`/`****`/`sk-xxxx…`, values starting with `your` or ending with `here`, values shown cut with
 *   `...`/`…`. Literal default passwords (`changeme`) and documentation keys (`AKIAIOSFODNN7EXAMPLE`) are
 *   redacted: they are real credentials often enough and cost nothing to hide.
 * - In code, values that are expressions are kept: calls, property paths (`config.apiKey`, `opts?.token`),
 *   identifiers without digits (`getToken`, `string`), digit-bearing type names (`Uint8Array`), hex and
 *   float literals. A quoted literal is redacted unless it holds whitespace (prose: a label or message),
 *   names itself (`"ietf-token"`, `"password"`), is a format string, colour or version, starts a union
 *   type (`'include' | 'omit'`), or is a digit-free word under a non-password name (`credentials:
 *   'include'`, `tokenType: 'Bearer'`: no real token looks like that).
 *   An unquoted value is redacted when it looks like a token: 8+ characters (6+ for a password name) and
 *   not an expression. So `password: letmein` (a bare word) is kept and `password: hunter22` is not.
 * - Literal contexts take any value but references and placeholders: dotenv and shell assignments
 *   (`NAME=value`, upper-case NAME, no spaces, at a line or word start: kind `dotenv`), query and
 *   connection strings (`?token=…`, `;Password=…`), and `--flag=value`.
 * - A name is secret-ish when one of its words is (`password`, `secret`, `token`, `credentials`, glued
 *   ones like `authtoken`; `auth`, `pass`, `pwd`, and `key` only with a qualifier such as `api_key`,
 *   `secretKey`, or any `KEY` in a dotenv name), and only words like `value`, `hash`, `b64` follow it:
 *   `token_count`, `max_tokens`, `AUTH_PROVIDER`, `DB_PASSWORD_FILE` and `PWD` are not secrets.
 */

export const REDACTION_KINDS = [
  'private-key',
  'aws-access-key',
  'aws-secret',
  'gcp-api-key',
  'github-token',
  'gitlab-token',
  'slack-token',
  'slack-webhook',
  'discord-webhook',
  'stripe-key',
  'openai-key',
  'anthropic-key',
  'google-oauth',
  'npm-token',
  'huggingface-token',
  'sendgrid-key',
  'shopify-token',
  'digitalocean-token',
  'telegram-bot-token',
  'pypi-token',
  'grafana-token',
  'sentry-token',
  'vault-token',
  'linear-key',
  'postman-key',
  'newrelic-key',
  'pulumi-token',
  'supabase-token',
  'doppler-token',
  'square-token',
  'notion-token',
  'mailgun-key',
  'mapbox-token',
  'age-secret-key',
  'heroku-key',
  'flyio-token',
  'netlify-token',
  'tapedeck-key',
  'jwt',
  'url-password',
  'bearer',
  'basic-auth',
  'azure-key',
  'dotenv',
  'password',
  'secret',
] as const;

export type RedactionKind = (typeof REDACTION_KINDS)[number];

export interface RedactResult {
  /** The text with every secret replaced by `[REDACTED:<kind>]`; the input itself when nothing was found. */
  text: string;
  /** How many secrets were replaced. */
  redactions: number;
  /** The distinct kinds replaced, in order of first appearance. */
  kinds: RedactionKind[];
}

const MARKER_PREFIX = '[REDACTED:';
const MAX_QUOTED = 4096;
const MAX_VALUE = 8192;
const MAX_NAME_BACK = 80;
const MAX_BLANKS = 16;
const MAX_PEM_SPAN = 65536;

interface TokenRule {
  kind: RedactionKind;
  /** Regex source without capture groups. */
  source: string;
  valid: (token: string) => boolean;
  classify?: (token: string) => RedactionKind;
}

/** Tokens recognised by their own prefix, anywhere a token run starts. */
const TOKEN_RULES: readonly TokenRule[] = [
  {
    kind: 'aws-access-key',
    source: '(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])',
    valid: (t) => isVaried(t.slice(4), 6),
  },
  { kind: 'gcp-api-key', source: 'AIza[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])', valid: (t) => isVaried(t, 10) },
  {
    kind: 'github-token',
    source: 'gh[pousr]_[A-Za-z0-9]{30,255}(?![A-Za-z0-9_])|github_pat_[A-Za-z0-9_]{22,255}',
    valid: (t) => isVaried(t, 10),
  },
  {
    kind: 'gitlab-token',
    source: 'gl(?:pat|ptt|dt|rt)-[A-Za-z0-9_-]{20,255}',
    valid: (t) => isVaried(t, 10),
  },
  {
    kind: 'slack-token',
    source: 'xox[abeprs]-[A-Za-z0-9-]{10,255}|xapp-[A-Za-z0-9-]{10,255}',
    valid: (t) => hasDigit(t) && isVaried(t, 8),
  },
  {
    kind: 'stripe-key',
    source: '(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,255}|whsec_[A-Za-z0-9]{20,255}',
    valid: (t) => isVaried(t, 10),
  },
  {
    // OpenAI (`sk-`, `sk-proj-`), Anthropic (`sk-ant-`) and other providers share the `sk-` shape.
    kind: 'openai-key',
    source: 'sk-[A-Za-z0-9_-]{32,512}',
    valid: (t) => hasDigit(t) && isVaried(t, 10),
    classify: (t) => (t.startsWith('sk-ant-') ? 'anthropic-key' : 'openai-key'),
  },
  {
    kind: 'google-oauth',
    source: 'ya29\\.[A-Za-z0-9_-]{20,2048}|GOCSPX-[A-Za-z0-9_-]{20,64}',
    valid: (t) => isVaried(t, 10),
  },
  { kind: 'npm-token', source: 'npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])', valid: (t) => isVaried(t, 10) },
  { kind: 'huggingface-token', source: 'hf_[A-Za-z0-9]{34}(?![A-Za-z0-9_])', valid: (t) => isVaried(t, 10) },
  // From the public rule sets of gitleaks and secretlint (the token shapes are the providers').
  {
    kind: 'sendgrid-key',
    source: 'SG\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])',
    valid: (t) => isVaried(t, 10),
  },
  {
    kind: 'shopify-token',
    source: 'shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}(?![A-Za-z0-9])',
    valid: (t) => isVaried(t, 8),
  },
  {
    kind: 'digitalocean-token',
    source: 'do[por]_v1_[a-f0-9]{64}(?![A-Za-z0-9])',
    valid: (t) => isVaried(t, 8),
  },
  { kind: 'pypi-token', source: 'pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,1000}', valid: () => true },
  {
    kind: 'grafana-token',
    source: 'glc_[A-Za-z0-9+/]{32,400}={0,2}|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}(?![A-Za-z0-9])',
    valid: (t) => isVaried(t, 10),
  },
  {
    kind: 'sentry-token',
    source: 'sntrys_eyJ[A-Za-z0-9+/=_-]{20,2000}|sntryu_[a-f0-9]{64}(?![A-Za-z0-9])',
    valid: (t) => isVaried(t, 8),
  },
  {
    kind: 'vault-token',
    source: 'hv[sb]\\.[A-Za-z0-9_-]{24,512}',
    valid: (t) => hasDigit(t) && isVaried(t, 10),
  },
  {
    kind: 'linear-key',
    source: 'lin_(?:api|oauth)_[A-Za-z0-9]{40}(?![A-Za-z0-9])',
    valid: (t) => isVaried(t, 10),
  },
  {
    kind: 'postman-key',
    source: 'PMAK-[a-f0-9]{24}-[a-f0-9]{34}(?![A-Za-z0-9])',
    valid: (t) => isVaried(t, 8),
  },
  {
    kind: 'newrelic-key',
    source: 'NR(?:AK|II|JS)-[A-Za-z0-9]{27,42}(?![A-Za-z0-9])',
    valid: (t) => hasDigit(t) && isVaried(t, 10),
  },
  { kind: 'pulumi-token', source: 'pul-[a-f0-9]{40}(?![A-Za-z0-9])', valid: (t) => isVaried(t, 8) },
  { kind: 'supabase-token', source: 'sb[pa]_[a-f0-9]{40}(?![A-Za-z0-9])', valid: (t) => isVaried(t, 8) },
  {
    kind: 'doppler-token',
    source: 'dp\\.(?:pt|st|sa|ct|scim|audit)\\.[A-Za-z0-9_-]{40,64}',
    valid: (t) => isVaried(t, 10),
  },
  { kind: 'square-token', source: 'sq0(?:atp|csp)-[A-Za-z0-9_-]{22,60}', valid: (t) => isVaried(t, 10) },
  {
    kind: 'notion-token',
    source: 'ntn_[0-9]{11}[A-Za-z0-9]{35}(?![A-Za-z0-9])|secret_[A-Za-z0-9]{43}(?![A-Za-z0-9])',
    valid: (t) => hasDigit(t) && isVaried(t, 10),
  },
  {
    kind: 'mailgun-key',
    source: 'key-[a-f0-9]{32}(?![A-Za-z0-9])',
    valid: (t) => hasDigit(t) && isVaried(t, 8),
  },
  {
    kind: 'mapbox-token',
    source: '[sp]k\\.eyJ[A-Za-z0-9_-]{20,1000}\\.[A-Za-z0-9_-]{20,200}',
    valid: (t) => t.startsWith('sk.') && isVaried(t, 10),
  },
  {
    kind: 'age-secret-key',
    source: 'AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}',
    valid: () => true,
  },
  { kind: 'heroku-key', source: 'HRKU-AA[A-Za-z0-9_-]{58}(?![A-Za-z0-9_-])', valid: (t) => isVaried(t, 10) },
  {
    kind: 'flyio-token',
    source: 'fo1_[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])|fm[12][ar]?_[A-Za-z0-9+/=_-]{100,4096}',
    valid: (t) => isVaried(t, 10),
  },
  {
    kind: 'netlify-token',
    source: 'nfp_[A-Za-z0-9]{36}(?![A-Za-z0-9])',
    valid: (t) => hasDigit(t) && isVaried(t, 10),
  },
  // Tapedeck's own API keys and owner token (core/api-keys.ts, app/local-token.ts).
  {
    kind: 'tapedeck-key',
    source: '(?:tapedeck|tdl)_[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])',
    valid: (t) => isVaried(t, 10),
  },
  {
    kind: 'jwt',
    source: 'eyJ[A-Za-z0-9_-]{4,8192}\\.eyJ[A-Za-z0-9_-]{4,8192}\\.[A-Za-z0-9_-]{0,8192}',
    valid: () => true,
  },
];

/** ASCII case-insensitive pattern for a lower-case word, without the `i` flag (token prefixes are cased). */
function ci(word: string): string {
  let out = '';
  for (const c of word) out += c >= 'a' && c <= 'z' ? `[${c}${c.toUpperCase()}]` : c;
  return out;
}

// Two scanners, merged by position: the union of every trigger in one regex scans several times slower
// than these two, because each has a small set of first characters to look for.
const G_PEM = 1;
const G_TOKEN = 2;
const G_SLACK_HOOK = 3;
const G_URL = 4;
const G_SCHEME = 5;
const G_TELEGRAM = 6;
const RUN_START = '(?<![A-Za-z0-9+/_-])';
const SCAN_FAST = new RegExp(
  [
    '(-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----)',
    // A token is found by the separator after its prefix (or its `A`/`J`) where a token run starts: this
    // keeps base64 images, hashes and `task-sk-…` out, and the scan linear.
    `([_.-](?<=${RUN_START}(?:gh[pousr]|github|gl(?:pat|ptt|dt|rt)|xox[abeprs]|xapp|[sr]k|whsec|ya29|GOCSPX|npm|hf|SG|shp(?:at|ss|ca|pa)|do[por]|pypi|glc|glsa|sntry[su]|hv[sb]|lin|PMAK|NR(?:AK|II|JS)|pul|sb[pa]|dp|sq0(?:atp|csp)|ntn|secret|key|pk|AGE|HRKU|fo1|fm[12][ar]?|nfp|tapedeck|tdl)[_.-])` +
      `|A(?<=${RUN_START}A)(?=KIA|SIA|BIA|CCA|Iza)|J(?<=${RUN_START}eyJ))`,
    '(hooks\\.slack\\.com/(?:services|workflows|triggers)/|discord(?:app)?\\.com/api/webhooks/)',
    '(://)',
    `(?<![A-Za-z0-9_-])(${ci('bearer')}|${ci('basic')})[ \\t]{1,8}`,
    // Telegram bot tokens: `<bot id>:AA<33>`, found by the colon (digits alone are everywhere).
    '(:)(?=AA[A-Za-z0-9_-]{33}(?![A-Za-z0-9_-]))',
  ].join('|'),
  'g',
);
const SCAN_NAMES = /p(?:ass|wd|rivate)|secret|token|cred|auth|key/gi;
/** The token rules, one group each; sticky, to read a whole token from where its prefix starts. */
const TOKEN_AT = new RegExp(TOKEN_RULES.map((r) => `(${r.source})`).join('|'), 'y');
/** The same, anchored: which rule a whole value matches. */
const SPECIFIC = new RegExp(`^(?:${TOKEN_RULES.map((r) => `(${r.source})`).join('|')})$`);

const PEM_END = /-----END [A-Z0-9 ]{0,40}-----/y;
const PEM_HEADER_LINE = /[A-Za-z][A-Za-z-]{0,31}: [^\r\n\\]{0,200}/y;
const URL_CREDENTIALS = /([^\s:@/?#'"<>[\]]{0,128}):([^\s@/?#'"<>[\]]{1,256})@(?=[A-Za-z0-9[])/y;
const AWS_SECRET_VALUE = /^[A-Za-z0-9/+]{40}$/;
const IDENT_PATH = /^[A-Za-z_$][\w$]*(?:[?!]?\.[A-Za-z_$][\w$]*)*[!?]?$/;
const NUMBER_LIKE = /^(?:0[xX][0-9a-fA-F_]+|0[bBoO][0-7_]+|[0-9_]*\.[0-9_]+(?:[eE][+-]?\d+)?[a-z]{0,3})$/;
const TYPE_LIKE =
  /^(?:u?int\d+|[iuf]\d+|float\d+|U?Int\d+(?:Clamped)?Array|Float\d+Array|Big(?:Ui|I)nt64Array|utf-?8|sha\d+|md5|base64|\w*25519\w*|secp256k1|p256|aes\d+\w*|x509\w*)$/i;
const REFERENCE =
  /^(?:\$\{[^}]*\}|\$\([^)]*\)|\$[A-Za-z_][A-Za-z0-9_]*|%[A-Za-z_][A-Za-z0-9_]*%|\{\{.*\}\})$/;
const SELF_DESCRIBING = /password|passwd|secret|token|credential|auth|api[-_]?key|private[-_]?key/i;
/** Word-shaped, digit-free values (`include`, `clientAuth`, `Bearer`, `same-origin`): labels and enums. */
const LABEL = /^_*(?:[a-z]+(?:[A-Z][a-z]+)*|[A-Z][a-z]+(?:[A-Z][a-z]+)*|[a-z]+(?:[-_.][a-z]+)+)$/;
/** Format strings, colours, versions and OIDs: `'%s:%s'`, `'{0}:{1}'`, `'#dcdccc'`, `'1.3.6.1'`. */
const TEMPLATE = /%[-+ #0-9.]*[sdifrxo]|\{\w*\}|^#[0-9a-fA-F]{3,8}$|^\d+(?:\.\d+)+$/;
const SPLIT_WORDS = /[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g;

const MASK_CHARS = 'xX*•._#-';
const words = (list: string): Set<string> => new Set(list.split(' '));
const KEYWORDS = words('null none nil undefined true false yes no on off');
const PLACEHOLDER_WORDS = words('value placeholder redacted empty todo tbd');
const PASSWORD_WORDS = words('password passwd passphrase passcode passwords pass pwd');
/** Long, unambiguous words: secret-ish anywhere in a name, also glued (`authtoken`, `dbpassword`). */
const SECRET_SUFFIXES = [
  ...'password passwd passphrase passcode secret secrets token credential credentials'.split(' '),
  ...'apikey accesskey secretkey privatekey signingkey masterkey'.split(' '),
];
/** Short, ambiguous words; `key` also needs a qualifier before it, `private` a dotenv name. */
const SHORT_SECRET_WORDS = words('pass pwd auth authorization creds cred key private');
const KEY_QUALIFIERS = words(
  'api access secret private auth client encryption signing sign master license subscription account app ' +
    'service ssh gpg pgp hmac jwt aes crypto consumer admin deploy webhook shared storage openai anthropic stripe',
);
/** Words that may follow the secret word in a name (`password_hash`, `SECRET_KEY_BASE`, `token2`). */
const TRAILING_OK = words(
  'value hash hashed b64 base64 enc encoded encrypted raw plain plaintext text str string data bytes bin hex ' +
    'key base confirm confirmation again repeat secret token',
);
/** First words of counters and flags: `max_tokens`, `input_token`, `has_password`, `use_auth`. */
const NOT_SECRET_FIRST = words(
  'max min num total input output prompt completion cached reasoning count has is use show should enable ' +
    'disable require requires allow can needs no with',
);

function charTable(chars: string): Uint8Array {
  const table = new Uint8Array(128);
  for (let i = 0; i < chars.length; i++) table[chars.charCodeAt(i)] = 1;
  return table;
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const ALNUM_CHARS = charTable(ALNUM);
const NAME_CHARS = charTable(`${ALNUM}_-.$`);
const BASE64_CHARS = charTable(`${ALNUM}+/=`);
const SCHEME_TOKEN_CHARS = charTable(`${ALNUM}-._~+/`);
const HOOK_PATH_CHARS = charTable(`${ALNUM}/_+-`);
const BLANK = charTable(' \t');
const GENERIC_STOP = charTable(' \t\n\r\f\v"\'`,;(){}[]<>&|\\=');
const ENV_STOP = charTable(' \t\n\r\f\v"\'`;&|\\');
const ENV_BEFORE = charTable(' \t\n\r;&|("\'`[,{');
const CODE_AFTER = charTable('([<{');

const inTable = (table: Uint8Array, code: number): boolean => code < 128 && table[code] === 1;
const hasDigit = (s: string): boolean => /[0-9]/.test(s);
const isQuote = (c: string | undefined): boolean => c === '"' || c === "'" || c === '`';

function isVaried(s: string, min: number): boolean {
  const seen = new Set<string>();
  for (const c of s) {
    seen.add(c);
    if (seen.size >= min) return true;
  }
  return false;
}

/** `<your-api-key>`, `xxxx`, `sk-...`, `YOUR_TOKEN_HERE`: shown to a reader, not a secret. */
function isPlaceholder(value: string): boolean {
  if (value.startsWith('<') || value.endsWith('>')) return true;
  if (value.includes('...') || value.includes('…')) return true;
  const lower = value.toLowerCase();
  if (PLACEHOLDER_WORDS.has(lower) || lower.startsWith('your') || lower.endsWith('here')) return true;
  // Masks: what is left after dropping mask characters is too little to be a secret.
  let rest = 0;
  for (let i = 0; i < value.length && rest < 3; i++) if (!MASK_CHARS.includes(value[i])) rest++;
  return rest < 3;
}

/** Values that can never be a secret in any context. */
function isInert(value: string): boolean {
  return (
    value.length === 0 ||
    value.startsWith(MARKER_PREFIX) ||
    REFERENCE.test(value) ||
    isPlaceholder(value) ||
    KEYWORDS.has(value.toLowerCase())
  );
}

function specificKind(value: string): RedactionKind | undefined {
  // The shortest token any rule accepts (`xoxb-` and 10 more) is 15 characters.
  return value.length < 15 ? undefined : ruleKind(SPECIFIC.exec(value));
}

function ruleKind(m: RegExpExecArray | null): RedactionKind | undefined {
  if (m === null) return undefined;
  const value = m[0];
  for (let i = 0; i < TOKEN_RULES.length; i++) {
    if (m[i + 1] === undefined) continue;
    const rule = TOKEN_RULES[i];
    return rule.valid(value) ? (rule.classify?.(value) ?? rule.kind) : undefined;
  }
  return undefined;
}

interface State {
  text: string;
  parts: string[];
  cursor: number;
  count: number;
  kinds: RedactionKind[];
  /** Last search for a PEM END line (from, found at): scanning only moves forward, so search once. */
  endFrom: number;
  endAt: number;
}

function replaceSpan(s: State, start: number, end: number, kind: RedactionKind): void {
  if (start < s.cursor || end <= start) return;
  s.parts.push(s.text.slice(s.cursor, start), `${MARKER_PREFIX}${kind}]`);
  s.cursor = end;
  s.count++;
  if (!s.kinds.includes(kind)) s.kinds.push(kind);
}

/** The next PEM END line at or after `from`; many BEGIN lines without one stay linear. */
function nextPemEnd(s: State, from: number): number {
  if (s.endFrom === -1 || from < s.endFrom || (s.endAt !== -1 && s.endAt < from)) {
    s.endFrom = from;
    s.endAt = s.text.indexOf('-----END ', from);
  }
  return s.endAt;
}

/**
 * Replace the secrets in `text` with `[REDACTED:<kind>]`. Pure, linear in the input, and idempotent:
 * `redact(redact(x).text).text === redact(x).text`.
 */
export function redact(text: string): RedactResult {
  const s: State = { text, parts: [], cursor: 0, count: 0, kinds: [], endFrom: -1, endAt: -1 };
  // Next hit of each scanner at or after `pos`; `undefined` until searched.
  let fast: RegExpExecArray | null | undefined;
  let name: RegExpExecArray | null | undefined;
  let command: RegExpExecArray | null | undefined;
  // A password flag found after a command, handled when the scan reaches it (spans go in order).
  let flag: FlagHit | null = null;
  let pos = 0;
  for (;;) {
    if (fast === undefined || (fast !== null && fast.index < pos)) {
      SCAN_FAST.lastIndex = pos;
      fast = SCAN_FAST.exec(text);
    }
    if (name === undefined || (name !== null && name.index < pos)) {
      SCAN_NAMES.lastIndex = pos;
      name = SCAN_NAMES.exec(text);
    }
    if (command === undefined || (command !== null && command.index < pos)) {
      SCAN_COMMANDS.lastIndex = pos;
      command = SCAN_COMMANDS.exec(text);
    }
    if (flag !== null && flag.start < pos) flag = nextFlag(text, pos, flag.segmentEnd, flag.spec);
    const fastAt = fast?.index ?? Infinity;
    const nameAt = name?.index ?? Infinity;
    const commandAt = command?.index ?? Infinity;
    const flagAt = flag?.start ?? Infinity;
    const at = Math.min(fastAt, nameAt, commandAt, flagAt);
    if (at === Infinity) break;
    let next: number;
    if (at === flagAt && flag !== null) {
      replaceSpan(s, flag.start, flag.end, 'password');
      next = flag.end;
      flag = nextFlag(text, flag.end, flag.segmentEnd, flag.spec);
    } else if (at === fastAt && fast) {
      next = dispatch(s, fast);
      fast = undefined;
    } else if (at === nameAt && name) {
      next = judgeName(s, at, at + name[0].length);
      name = undefined;
    } else {
      const m = command as RegExpExecArray;
      next = at + m[0].length;
      // A command name, not the end of another word (`/usr/bin/mysql` is one, `pycurl` is not).
      if (at === 0 || !inTable(NAME_CHARS, text.charCodeAt(at - 1))) {
        const spec = COMMANDS[m[0]];
        flag = nextFlag(text, next, segmentEnd(text, next), spec) ?? flag;
      }
      command = undefined;
    }
    pos = next > at ? next : at + 1;
  }
  if (s.count === 0) return { text, redactions: 0, kinds: [] };
  s.parts.push(text.slice(s.cursor));
  return { text: s.parts.join(''), redactions: s.count, kinds: s.kinds };
}

/** Handle one hit of the fast scanner; returns where scanning resumes. */
function dispatch(s: State, m: RegExpExecArray): number {
  const text = s.text;
  const end = m.index + m[0].length;
  if (m[G_TOKEN] !== undefined) {
    // Back over the prefix (`ghp`, `ey`) to where the token starts; the scanner checked it is a run start.
    let start = m.index;
    while (start > 0 && m.index - start < 12 && inTable(ALNUM_CHARS, text.charCodeAt(start - 1))) start--;
    TOKEN_AT.lastIndex = start;
    const token = TOKEN_AT.exec(text);
    const kind = ruleKind(token);
    if (token === null || kind === undefined) return end;
    replaceSpan(s, start, start + token[0].length, kind);
    return start + token[0].length;
  }
  if (m[G_PEM] !== undefined) return privateKey(s, m.index, end);
  if (m[G_URL] !== undefined) return urlPassword(s, end);
  if (m[G_SCHEME] !== undefined) return authScheme(s, end, m[G_SCHEME].toLowerCase() === 'basic');
  if (m[G_TELEGRAM] !== undefined) {
    // `<bot id>:AA…`: 5 to 16 digits before the colon, at a word start or after `bot` (a URL).
    let d = m.index;
    while (d > 0 && m.index - d < 17 && text.charCodeAt(d - 1) >= 48 && text.charCodeAt(d - 1) <= 57) d--;
    const digits = m.index - d;
    const lead = d === 0 || !inTable(NAME_CHARS, text.charCodeAt(d - 1)) || text.endsWith('bot', d);
    if (digits < 5 || digits > 16 || !lead) return end;
    // Keep the bot id (public), hide the secret half.
    replaceSpan(s, end, end + 35, 'telegram-bot-token');
    return end + 35;
  }
  if (m[G_SLACK_HOOK] === undefined) return end;
  // Slack and Discord webhooks: keep `hooks.slack.com/services/`, hide the path that is the credential.
  const stop = scanWhile(text, end, HOOK_PATH_CHARS, 512);
  const kind = m[G_SLACK_HOOK].startsWith('discord') ? 'discord-webhook' : 'slack-webhook';
  if (stop - end >= 8 && isVaried(text.slice(end, stop), 8)) replaceSpan(s, end, stop, kind);
  return stop;
}

/** Which flags carry a password inline, per command. */
interface CommandSpec {
  flags: readonly string[];
  /** Flags whose value must be attached (`mysql -pPASS`; `-p` alone prompts, `-p db` names a db). */
  attachedOnly?: readonly string[];
  /** The value is `user:password`: only what follows the first colon goes. */
  userPass?: boolean;
}
const MYSQL: CommandSpec = { flags: ['-p'], attachedOnly: ['-p'] };
const COMMANDS: Record<string, CommandSpec> = {
  mysql: MYSQL,
  mysqldump: MYSQL,
  mysqladmin: MYSQL,
  mysqlimport: MYSQL,
  mysqlsh: MYSQL,
  mariadb: MYSQL,
  'mariadb-dump': MYSQL,
  sshpass: { flags: ['-p'] },
  'redis-cli': { flags: ['-a', '--pass'] },
  curl: { flags: ['-u', '--user'], userPass: true },
};
/** Commands that take a password on the command line, followed by a blank. */
const SCAN_COMMANDS = /(?:mysql(?:dump|admin|import|sh)?|mariadb(?:-dump)?|sshpass|redis-cli|curl)(?=[ \t])/g;
/** Where a command's arguments end: a line break (also JSON-escaped) or a shell separator. */
const SEGMENT_END = charTable('\n\r;|&)`');
const MAX_SEGMENT = 2000;

interface FlagHit {
  start: number;
  end: number;
  segmentEnd: number;
  spec: CommandSpec;
}

/** The end of the command segment starting at `from`. */
function segmentEnd(text: string, from: number): number {
  const limit = Math.min(text.length, from + MAX_SEGMENT);
  for (let i = from; i < limit; i++) {
    const c = text.charCodeAt(i);
    if (inTable(SEGMENT_END, c)) return i;
    if (c === 92 && (text[i + 1] === 'n' || text[i + 1] === 'r')) return i;
  }
  return limit;
}

/** The span of a word from `at`: inside its quotes when quoted (also `\"…\"` in JSON). */
function wordAt(text: string, at: number, end: number): { from: number; to: number; next: number } | null {
  const escaped = text[at] === '\\' && isQuote(text[at + 1]);
  if (escaped || isQuote(text[at])) {
    const quote = escaped ? text[at + 1] : text[at];
    const from = at + (escaped ? 2 : 1);
    const close = closingQuote(text, from, quote, escaped);
    if (close === -1 || close > end) return null;
    return { from, to: close, next: close + (escaped ? 2 : 1) };
  }
  let to = at;
  while (to < end && !inTable(BLANK, text.charCodeAt(to))) to++;
  return { from: at, to, next: to };
}

/** The next password value of a flag in `[from, end)` (see COMMANDS), or null. */
function nextFlag(text: string, from: number, end: number, spec: CommandSpec): FlagHit | null {
  let i = skipBlanks(text, from);
  while (i < end) {
    const word = wordAt(text, i, end);
    if (word === null) return null;
    const w = text.slice(word.from, word.to);
    let value: { from: number; to: number } | null = null;
    for (const flag of spec.flags) {
      if (w === flag && word.from === i) {
        if (spec.attachedOnly?.includes(flag)) break;
        const v = wordAt(text, skipBlanks(text, word.next), end);
        if (v !== null && !text.startsWith('-', v.from)) value = v;
      } else if (w.startsWith(flag) && word.from === i && w.length > flag.length) {
        const rest =
          word.from + flag.length + (flag.startsWith('--') || text[word.from + flag.length] === '=' ? 1 : 0);
        if (flag.startsWith('--') && text[word.from + flag.length] !== '=') continue;
        value = isQuote(text[rest]) ? wordAt(text, rest, end) : { from: rest, to: word.to };
      }
      if (value !== null) break;
    }
    if (value !== null) {
      let start = value.from;
      if (spec.userPass) {
        const colon = text.indexOf(':', value.from);
        if (colon === -1 || colon >= value.to) value = null;
        else start = colon + 1;
      }
      if (value !== null) {
        const v = text.slice(start, value.to);
        if (v.length >= 2 && !isInert(v) && !v.startsWith('$'))
          return { start, end: value.to, segmentEnd: end, spec };
      }
    }
    const after = skipBlanks(text, Math.max(word.next, i + 1));
    if (after === i) return null;
    i = after;
  }
  return null;
}

function scanWhile(text: string, from: number, table: Uint8Array, max: number): number {
  const limit = Math.min(text.length, from + max);
  let i = from;
  while (i < limit && inTable(table, text.charCodeAt(i))) i++;
  return i;
}

/** Index of the first character in `table` (non-ASCII never stops), at most `max` characters on. */
function scanUntil(text: string, from: number, table: Uint8Array, max: number): number {
  const limit = Math.min(text.length, from + max);
  let i = from;
  while (i < limit && !inTable(table, text.charCodeAt(i))) i++;
  return i;
}

function skipBlanks(text: string, i: number): number {
  return scanWhile(text, i, BLANK, MAX_BLANKS);
}

/** End of a PEM body from `from`: base64, line breaks (real or JSON-escaped) and RFC 1421 headers. */
function pemBodyEnd(text: string, from: number): number {
  let i = from;
  let lineStart = true;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) {
      i++;
      lineStart = true;
    } else if ((c === 32 || c === 9) && lineStart) {
      i++; // indentation (YAML, heredocs)
    } else if (c === 92 && (text[i + 1] === 'n' || text[i + 1] === 'r')) {
      i += 2;
      lineStart = true;
    } else if (inTable(BASE64_CHARS, c)) {
      PEM_HEADER_LINE.lastIndex = i;
      if (lineStart && PEM_HEADER_LINE.exec(text) !== null) i = PEM_HEADER_LINE.lastIndex;
      else i++;
      lineStart = false;
    } else break;
  }
  return i;
}

/** The whole PEM block through its END line; when the END line is missing, through the base64 body. */
function privateKey(s: State, start: number, headerEnd: number): number {
  const text = s.text;
  const body = pemBodyEnd(text, headerEnd);
  const endAt = nextPemEnd(s, headerEnd);
  if (endAt === body && endAt - headerEnd <= MAX_PEM_SPAN) {
    PEM_END.lastIndex = endAt;
    const close = PEM_END.exec(text) !== null ? PEM_END.lastIndex : endAt + 9;
    replaceSpan(s, start, close, 'private-key');
    return close;
  }
  // Truncated (or only a header in code, like `indexOf("-----BEGIN PRIVATE KEY-----")`).
  let i = body;
  for (;;) {
    if (i > headerEnd && /\s/.test(text[i - 1])) i--;
    else if (i > headerEnd + 1 && text[i - 2] === '\\' && (text[i - 1] === 'n' || text[i - 1] === 'r'))
      i -= 2;
    else break;
  }
  if (text.slice(headerEnd, i).replace(/\s|\\[nr]/g, '').length >= 16)
    replaceSpan(s, start, i, 'private-key');
  return Math.max(i, headerEnd);
}

/** `scheme://user:PASSWORD@host`: only the password goes. */
function urlPassword(s: State, from: number): number {
  URL_CREDENTIALS.lastIndex = from;
  const m = URL_CREDENTIALS.exec(s.text);
  if (m === null) return from;
  const password = m[2];
  const pwStart = from + m[1].length + 1;
  const pwEnd = pwStart + password.length;
  if (!isInert(password)) replaceSpan(s, pwStart, pwEnd, specificKind(password) ?? 'url-password');
  return pwEnd + 1;
}

/** `Bearer <token>` and `Basic <base64>` (headers, curl flags, logs). */
function authScheme(s: State, from: number, basic: boolean): number {
  const text = s.text;
  let stop = scanWhile(text, from, SCHEME_TOKEN_CHARS, MAX_QUOTED);
  while (stop < text.length && text[stop] === '=' && stop - from < MAX_QUOTED) stop++;
  const value = text.slice(from, stop);
  if (value.length < 8 || isInert(value)) return stop;
  const specific = specificKind(value);
  const innerUpper = /[a-z][A-Z]/.test(value);
  if (specific !== undefined) replaceSpan(s, from, stop, specific);
  else if (basic) {
    if (isBasicCredentials(value)) replaceSpan(s, from, stop, 'basic-auth');
  } else if (hasDigit(value) || innerUpper || (value.length >= 16 && /[._~+/-]/.test(value))) {
    replaceSpan(s, from, stop, 'bearer');
  }
  return stop;
}

/** Basic credentials are base64 of `user:password`: decode and look for the colon. */
function isBasicCredentials(value: string): boolean {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return false;
  try {
    const decoded = atob(value);
    return decoded.includes(':') && /^[\x20-\x7e\u00a0-\u00ff]+$/.test(decoded);
  } catch {
    return false;
  }
}

interface NameInfo {
  kind: 'password' | 'secret';
  /** Names a password by a full word (`password`, `passphrase`), not just `pass`/`pwd`. */
  spelledOut: boolean;
  aws: boolean;
  azure: boolean;
}

const nameCache = new Map<string, NameInfo | null>();

/** Memoized: names repeat a lot (`input_tokens`, `apiKey`) and the answer depends on nothing else. */
function classifyName(segment: string, envStyle: boolean): NameInfo | undefined {
  const key = envStyle ? `=${segment}` : segment;
  let info = nameCache.get(key);
  if (info === undefined) {
    if (nameCache.size >= 4096) nameCache.clear();
    info = classifyWords(segment.replace(/^[-$@]+/, ''), envStyle) ?? null;
    nameCache.set(key, info);
  }
  return info ?? undefined;
}

function classifyWords(segment: string, envStyle: boolean): NameInfo | undefined {
  const list = segment.match(SPLIT_WORDS)?.map((w) => w.toLowerCase()) ?? [];
  if (list.length === 0 || NOT_SECRET_FIRST.has(list[0])) return undefined;
  if (list.length === 1 && (list[0] === 'pwd' || list[0] === 'oldpwd')) return undefined;
  let last = -1;
  let password = false;
  let spelledOut = false;
  for (let i = 0; i < list.length; i++) {
    const w = list[i];
    let hit = SECRET_SUFFIXES.some((suffix) => w.endsWith(suffix));
    if (!hit && SHORT_SECRET_WORDS.has(w)) {
      if (w === 'key') hit = i > 0 && (envStyle || KEY_QUALIFIERS.has(list[i - 1]));
      else hit = w !== 'private' || envStyle;
    }
    if (!hit) continue;
    last = i;
    const long = w.endsWith('password') || w.endsWith('passwd') || w.endsWith('passphrase');
    if (long || PASSWORD_WORDS.has(w)) password = true;
    if (long) spelledOut = true;
  }
  if (last === -1) return undefined;
  for (let i = last + 1; i < list.length; i++) {
    if (!TRAILING_OK.has(list[i]) && !/^[0-9]+$/.test(list[i])) return undefined;
  }
  const compact = list.join('');
  return {
    kind: password ? 'password' : 'secret',
    spelledOut,
    aws: list.includes('secret') && (list.includes('aws') || list.includes('access')),
    azure: compact === 'accountkey' || compact === 'sharedaccesskey',
  };
}

/** Index of the closing quote on the same line, or -1. */
function closingQuote(text: string, from: number, quote: string, escaped: boolean): number {
  const limit = Math.min(text.length, from + MAX_QUOTED);
  for (let i = from; i < limit; i++) {
    const c = text[i];
    if (c === '\n' || c === '\r') return -1;
    if (c === '\\') {
      if (escaped && text[i + 1] === quote) return i;
      i++;
    } else if (!escaped && c === quote) return i;
  }
  return -1;
}

type Operator = 'eq' | 'colon' | 'space';

interface Context {
  info: NameInfo;
  envStyle: boolean;
  /** The value is a literal whatever it looks like (dotenv, query string, `--flag=value`). */
  literal: boolean;
  op: Operator;
  nameEnd: number;
}

/**
 * A secret-ish word was hit. Find the whole name around it and an assignment operator after it, then
 * judge the value. Returns where scanning resumes: after a redacted value, or at the start of a kept
 * value so that a token inside it is still found.
 */
function judgeName(s: State, hitStart: number, hitEnd: number): number {
  const text = s.text;
  let b = hitEnd;
  // Bounded like the look back: a hit without an operator resumes right after the word, so an
  // unbounded scan here would make a long run of names quadratic.
  const maxB = Math.min(text.length, hitEnd + MAX_NAME_BACK);
  while (b < maxB && inTable(NAME_CHARS, text.charCodeAt(b))) b++;
  while (b > hitEnd && (text[b - 1] === '.' || text[b - 1] === '-')) b--;

  // Closing quote of a quoted key (`"api_key":`, `\"token\":`, `headers['X-Api-Key'] =`), TS `?:`.
  let i = b;
  let quotedKey = false;
  if (text[i] === '\\' && isQuote(text[i + 1])) {
    i += 2;
    quotedKey = true;
  } else if (isQuote(text[i])) {
    i++;
    quotedKey = true;
  }
  if (quotedKey && text[i] === ']') i++;
  if (!quotedKey && (text[i] === '?' || text[i] === '!') && text[i + 1] === ':') i++;
  const opStart = skipBlanks(text, i);
  const spaced = opStart > i;
  const c = text[opStart];
  const eq = c === '=' && text[opStart + 1] !== '=' && text[opStart + 1] !== '~';
  const colon = c === ':' && text[opStart + 1] !== ':';
  // Most hits (`Object.keys(`, `tests passed`) have no operator: leave before looking left, right
  // after the word, so a token that starts with it (`secret_…`, `key-…`) is still found.
  if (!eq && !colon && !(spaced && !quotedKey)) return hitEnd;

  let a = hitStart;
  const minA = Math.max(0, hitStart - MAX_NAME_BACK);
  while (a > minA && inTable(NAME_CHARS, text.charCodeAt(a - 1))) a--;
  // `…\nAPI_KEY=` inside a JSON string: the `n` of the escape is not part of the name.
  let escapedBreak = false;
  if (a > 0 && text[a - 1] === '\\' && a < hitStart && 'ntr'.includes(text[a])) {
    a++;
    escapedBreak = true;
  }
  const flag = text[a] === '-';
  let op: Operator;
  let valueStart = opStart;
  if (eq) {
    op = 'eq';
    valueStart += text[opStart + 1] === '>' ? 2 : 1;
  } else if (colon) {
    op = 'colon';
    valueStart += text[opStart + 1] === '=' ? 2 : 1;
  } else if (flag || c === '"' || c === "'") op = 'space';
  else return hitEnd;

  const tight =
    op === 'eq' && !spaced && valueStart === opStart + 1 && !inTable(BLANK, text.charCodeAt(valueStart));
  const name = text.slice(a, b);
  const before = a > 0 ? text.charCodeAt(a - 1) : 10;
  const envStyle =
    tight && /^[A-Z][A-Z0-9_]*$/.test(name) && (a === 0 || escapedBreak || inTable(ENV_BEFORE, before));
  const info = classifyName(name.slice(name.lastIndexOf('.') + 1), envStyle);
  if (info === undefined) return hitEnd;
  // Without an operator only `--password value` and `PASSWORD 'value'` (SQL) are assignments.
  if (op === 'space' && !flag && !info.spelledOut) return hitEnd;
  // `?token=`, `&key=`, `;Password=`, `--token=`: a query, connection string or flag value is a literal.
  const literal =
    envStyle || info.azure || (tight && (flag || before === 63 || before === 38 || before === 59));
  return judgeValue(s, skipBlanks(text, valueStart), { info, envStyle, literal, op, nameEnd: b });
}

function kindFor(ctx: Context, value: string): RedactionKind {
  const specific = specificKind(value);
  if (specific !== undefined) return specific;
  if (ctx.info.aws && AWS_SECRET_VALUE.test(value)) return 'aws-secret';
  if (ctx.info.azure) return 'azure-key';
  return ctx.envStyle ? 'dotenv' : ctx.info.kind;
}

function judgeValue(s: State, at: number, ctx: Context): number {
  const text = s.text;
  // Python string prefixes: `b'…'`, `r"…"`, `f"…"` (an f-string's `{…}` makes it a template).
  const start = 'bBrRuUfF'.includes(text[at]) && (text[at + 1] === '"' || text[at + 1] === "'") ? at + 1 : at;
  const escapedQuote = text[start] === '\\' && isQuote(text[start + 1]);
  if (escapedQuote || isQuote(text[start])) {
    const quote = escapedQuote ? text[start + 1] : text[start];
    const from = start + (escapedQuote ? 2 : 1);
    const close = closingQuote(text, from, quote, escapedQuote);
    if (close === -1) return Math.max(ctx.nameEnd, from);
    const value = text.slice(from, close);
    if (isInert(value) || value.includes('${') || (quote === '`' && ctx.envStyle)) return from;
    if (!ctx.literal && !specificKind(value)) {
      const after = text[skipBlanks(text, close + (escapedQuote ? 2 : 1))];
      const prose =
        value.length < 3 ||
        /\s/.test(value) ||
        SELF_DESCRIBING.test(value) ||
        TEMPLATE.test(value) ||
        after === '|' ||
        (ctx.info.kind === 'secret' && LABEL.test(value));
      if (prose) return from;
    }
    replaceSpan(s, from, close, kindFor(ctx, value));
    return close;
  }

  if (ctx.op === 'space' && text[start] === '-') return start;
  let stop = scanUntil(text, start, ctx.envStyle ? ENV_STOP : GENERIC_STOP, MAX_VALUE + 1);
  if (!ctx.envStyle) {
    // Base64 padding belongs to the value; `a=b` does not.
    let pad = stop;
    while (pad < text.length && pad - stop < 3 && text[pad] === '=') pad++;
    if (pad > stop && (pad === text.length || inTable(GENERIC_STOP, text.charCodeAt(pad)))) stop = pad;
  }
  // Far too long for a secret: skip it whole so scanning stays linear.
  if (stop - start > MAX_VALUE) return stop;
  let end = stop;
  while (end > start && text[end - 1] === '.') end--;
  const value = text.slice(start, end);
  // What is kept is scanned again from its start, so a token inside it is still found.
  if (value.length === 0) return Math.max(ctx.nameEnd, start);
  // `$(gh auth token)`, `${{ secrets.X }}`, `ghp_...`: references and placeholders, whole or cut.
  if (isInert(value) || value.startsWith('$(') || value.startsWith('${') || text.startsWith('...', end)) {
    return start;
  }
  if (!ctx.literal && !specificKind(value)) {
    const code =
      inTable(CODE_AFTER, text.charCodeAt(stop)) ||
      (IDENT_PATH.test(value) && (value.includes('.') || !hasDigit(value))) ||
      NUMBER_LIKE.test(value) ||
      TYPE_LIKE.test(value) ||
      /^![A-Za-z]/.test(value); // a YAML tag: `password: !vault |`
    if (code) {
      // `api_key: str = "…"` (an annotation with a default): judge the default instead.
      const eq = skipBlanks(text, stop);
      if (
        ctx.op === 'colon' &&
        IDENT_PATH.test(value) &&
        text[eq] === '=' &&
        text[eq + 1] !== '=' &&
        text[eq + 1] !== '>'
      ) {
        return judgeValue(s, skipBlanks(text, eq + 1), { ...ctx, op: 'eq' });
      }
      return start;
    }
    const path = /^(?:\/|\.\.?\/|~\/|:)/.test(value) || value.includes('://');
    if (path || SELF_DESCRIBING.test(value) || value.length < (ctx.info.kind === 'password' ? 6 : 8)) {
      return start;
    }
  }
  replaceSpan(s, start, end, kindFor(ctx, value));
  return stop;
}
