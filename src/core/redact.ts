/**
 * Secret redaction, applied to every piece of text before it is stored or indexed.
 *
 * A secret becomes `[REDACTED:<kind>]`; the name or context around it (the `API_KEY=` of a dotenv line,
 * the `Bearer ` of a header, the user and host of a URL) stays, so the text is still searchable.
 *
 * Design, because this runs on every transcript step while indexing:
 * - One combined regex scans the text once. Its alternatives start with a literal trigger (a token
 *   prefix such as `ghp_`, `-----BEGIN`, `://`, `Bearer`, or a secret-ish word such as `token`), so text
 *   with no candidate costs one regex pass and no allocation. Each hit is then judged by small hand-written
 *   parsers that only look a bounded distance around the hit, and scanning resumes after what they read:
 *   the total work stays linear and no pattern can backtrack catastrophically.
 * - A specific token kind wins over a context kind: `OPENAI_API_KEY=sk-…` reads
 *   `OPENAI_API_KEY=[REDACTED:openai-key]`, not `[REDACTED:dotenv]`.
 * - The marker itself never matches any rule, so `redact` is idempotent.
 *
 * Decisions on ambiguous cases (tests pin each one):
 * - Stripe publishable keys (`pk_live_`, `pk_test_`) are public by design and are kept.
 * - Placeholders are kept: `<your-api-key>`, `${TOKEN}`, `{{ token }}`, `$TOKEN`, `%TOKEN%`, masks such as
 *   `xxxx`/`****`/`sk-...`, values starting with `your`, and values shown truncated with `...`/`…`.
 *   Literal default passwords (`changeme`, `password123`) and documentation keys (`AKIAIOSFODNN7EXAMPLE`)
 *   are redacted: they are real credentials often enough and cost nothing to hide.
 * - In code, a value that is an expression is kept: calls, property paths (`config.apiKey`), identifiers
 *   without digits (`getToken`, `string`), and common digit-bearing type names (`Uint8Array`, `int64`).
 *   A quoted literal with no whitespace is redacted; one with whitespace is prose (a label or message).
 *   An unquoted value is redacted when it looks like a token: 8+ characters (6+ for a password name) and
 *   not an expression. So `password: letmein` (a bare word) is kept, `password: hunter22` is not.
 * - A dotenv or shell assignment (`NAME=value`, no spaces, upper-case NAME, at a line or word start) is a
 *   literal context: any value is redacted except references, placeholders and `true`/`false`/`null`.
 * - Short ambiguous name words (`key`, `auth`, `pass`, `pwd`, `private`) count only as the last word of a
 *   name, and bare `key` needs a qualifier (`api_key`, `secretKey`) unless the name is a dotenv name;
 *   names ending in `_count`, `_url`, `_type`, `_file`, … and LLM counters (`max_tokens`) are not secrets;
 *   `PWD`/`OLDPWD` are directories.
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
  'stripe-key',
  'openai-key',
  'anthropic-key',
  'google-oauth',
  'npm-token',
  'huggingface-token',
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
  /** The text with every secret replaced by `[REDACTED:<kind>]`. */
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
  source: string;
  valid?: (token: string) => boolean;
  classify?: (token: string) => RedactionKind;
}

/** Tokens recognised by their own prefix, anywhere (at the start of a token-character run). */
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
  { kind: 'gitlab-token', source: 'gl(?:pat|ptt|dt|rt)-[A-Za-z0-9_-]{20,255}', valid: (t) => isVaried(t, 10) },
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
    // OpenAI (`sk-`, `sk-proj-`), Anthropic (`sk-ant-`) and other `sk-` providers share the shape.
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
  {
    kind: 'huggingface-token',
    source: 'hf_[A-Za-z0-9]{34}(?![A-Za-z0-9_])',
    valid: (t) => isVaried(t, 10),
  },
  {
    kind: 'jwt',
    source: 'eyJ[A-Za-z0-9_-]{4,8192}\\.eyJ[A-Za-z0-9_-]{4,8192}\\.[A-Za-z0-9_-]{0,8192}',
  },
];

/** Words that may make a name secret-ish; each hit is judged by `judgeName`. */
const NAME_TRIGGERS = ['pass', 'pwd', 'secret', 'token', 'cred', 'auth', 'key', 'private'];

/** ASCII case-insensitive pattern for a lower-case word, without the `i` flag (token prefixes are cased). */
function ci(word: string): string {
  let out = '';
  for (const c of word) out += c >= 'a' && c <= 'z' ? `[${c}${c.toUpperCase()}]` : c;
  return out;
}

const G_PEM = 1;
const G_TOKEN = 2;
const G_SLACK_HOOK = 3;
const G_URL = 4;
const G_SCHEME = 5;
const G_NAME = 6;

const SCAN = new RegExp(
  [
    '(-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----)',
    // Not inside a base64 or identifier run: keeps images, hashes and `task-sk-…` out.
    `(?<![A-Za-z0-9+/_-])(${TOKEN_RULES.map((r) => r.source).join('|')})`,
    '(hooks\\.slack\\.com/(?:services|workflows|triggers)/)',
    '(://)',
    `(?<![A-Za-z0-9_-])(${ci('bearer')}|${ci('basic')})[ \\t]{1,8}`,
    `(${NAME_TRIGGERS.map(ci).join('|')})`,
  ].join('|'),
  'g',
);

/** The same token rules, anchored, one group each: which rule a whole value matches. */
const SPECIFIC = new RegExp(`^(?:${TOKEN_RULES.map((r) => `(${r.source})`).join('|')})$`);
const PEM_END = /-----END [A-Z0-9 ]{0,40}-----/y;
const PEM_HEADER_LINE = /[A-Za-z][A-Za-z-]{0,31}: [^\r\n\\]{0,200}/y;
const URL_CREDENTIALS = /([^\s:@/?#'"<>[\]]{0,128}):([^\s@/?#'"<>[\]]{1,256})@(?=[A-Za-z0-9[])/y;
const AWS_SECRET_VALUE = /^[A-Za-z0-9/+]{40}$/;
const IDENT_PATH = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*[!?]?$/;
const TYPE_LIKE =
  /^(?:u?int\d+|[iuf]\d+|float\d+|U?Int\d+(?:Clamped)?Array|Float\d+Array|Big(?:Ui|I)nt64Array|utf-?8|sha\d+|md5|base64|\w*25519\w*|secp256k1|p256|aes\d+\w*|x509\w*)$/i;
const REFERENCE = /^(?:\$\{[^}]*\}|\$\([^)]*\)|\$[A-Za-z_][A-Za-z0-9_]*|%[A-Za-z_][A-Za-z0-9_]*%|\{\{.*\}\})$/;
const SPLIT_WORDS = /[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g;

const KEYWORDS = new Set(['null', 'none', 'nil', 'undefined', 'true', 'false', 'yes', 'no', 'on', 'off']);
const PLACEHOLDER_WORDS = new Set(['value', 'placeholder', 'redacted', 'empty', 'todo', 'tbd']);
const PASSWORD_WORDS = new Set(['password', 'passwd', 'passphrase', 'passcode', 'passwords', 'pass', 'pwd']);
/** Long, unambiguous words: secret-ish anywhere in a name, also glued (`authtoken`, `dbpassword`). */
const SECRET_SUFFIXES = [
  'password',
  'passwd',
  'passphrase',
  'passcode',
  'secret',
  'secrets',
  'token',
  'credential',
  'credentials',
  'apikey',
  'accesskey',
  'secretkey',
  'privatekey',
  'signingkey',
  'masterkey',
];
/** Short, ambiguous words: secret-ish only as the last word of a name. */
const LAST_ONLY = new Set(['pass', 'pwd', 'auth', 'authorization', 'creds', 'cred', 'key', 'private']);
const KEY_QUALIFIERS = new Set([
  'api',
  'access',
  'secret',
  'private',
  'auth',
  'client',
  'encryption',
  'signing',
  'sign',
  'master',
  'license',
  'subscription',
  'account',
  'app',
  'service',
  'ssh',
  'gpg',
  'pgp',
  'hmac',
  'jwt',
  'aes',
  'crypto',
  'consumer',
  'admin',
  'deploy',
  'webhook',
  'shared',
  'storage',
  'openai',
  'anthropic',
  'stripe',
]);
const NOT_SECRET_LAST = new Set(
  (
    'count counts len length size limit limits max min ttl timeout expiry expires expiration exp lifetime age ' +
    'path paths file files filename dir directory url urls uri endpoint host port name names type types header ' +
    'prefix suffix field fields env var variable enabled disabled required mode alg algorithm label placeholder ' +
    'hint help description desc title message msg error errors regex pattern policy format version location ' +
    'provider method strategy scheme sock socket stdin manager handler callback validator input form button ' +
    'icon style class parallelism usage used remaining budget index idx position kind schema param params ' +
    'rotation strength visible visibility changed updated created at date time source ref id ids cache'
  ).split(' '),
);
const NOT_SECRET_FIRST = new Set(
  (
    'max min num total input output prompt completion cached reasoning count has is use show should enable ' +
    'disable require requires allow can needs no with'
  ).split(' '),
);

function charTable(chars: string): Uint8Array {
  const table = new Uint8Array(128);
  for (let i = 0; i < chars.length; i++) table[chars.charCodeAt(i)] = 1;
  return table;
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
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
  // Masks: what remains after dropping mask characters is too little to be a secret.
  return value.replace(/[xX*•._#-]/g, '').length < 3;
}

function isReference(value: string): boolean {
  return REFERENCE.test(value);
}

function isMarker(value: string): boolean {
  return value.startsWith(MARKER_PREFIX);
}

function specificKind(value: string): RedactionKind | undefined {
  const m = SPECIFIC.exec(value);
  if (m === null) return undefined;
  for (let i = 0; i < TOKEN_RULES.length; i++) {
    if (m[i + 1] === undefined) continue;
    const rule = TOKEN_RULES[i];
    if (rule.valid !== undefined && !rule.valid(value)) return undefined;
    return rule.classify?.(value) ?? rule.kind;
  }
  return undefined;
}

interface State {
  text: string;
  parts: string[];
  cursor: number;
  count: number;
  kinds: RedactionKind[];
  /** Memo of the last `indexOf` per needle: scanning only moves forward, so each needle is searched once. */
  memo: Map<string, { from: number; at: number }>;
}

function replaceSpan(s: State, start: number, end: number, kind: RedactionKind): void {
  if (start < s.cursor || end <= start) return;
  s.parts.push(s.text.slice(s.cursor, start), `${MARKER_PREFIX}${kind}]`);
  s.cursor = end;
  s.count++;
  if (!s.kinds.includes(kind)) s.kinds.push(kind);
}

function nextIndexOf(s: State, needle: string, from: number): number {
  const hit = s.memo.get(needle);
  if (hit !== undefined && from >= hit.from && (hit.at === -1 || hit.at >= from)) return hit.at;
  const at = s.text.indexOf(needle, from);
  s.memo.set(needle, { from, at });
  return at;
}

/**
 * Redact the secrets in `text`. Pure and idempotent: `redact(redact(x).text).text === redact(x).text`.
 * Returns the input string itself when nothing was found.
 */
export function redact(text: string): RedactResult {
  const s: State = { text, parts: [], cursor: 0, count: 0, kinds: [], memo: new Map() };
  SCAN.lastIndex = 0;
  for (let m = SCAN.exec(text); m !== null; m = SCAN.exec(text)) {
    const next = dispatch(s, m);
    SCAN.lastIndex = next > m.index ? next : m.index + 1;
  }
  if (s.count === 0) return { text, redactions: 0, kinds: [] };
  s.parts.push(text.slice(s.cursor));
  return { text: s.parts.join(''), redactions: s.count, kinds: s.kinds };
}

/** Handle one scanner hit; returns where scanning resumes. */
function dispatch(s: State, m: RegExpExecArray): number {
  const start = m.index;
  const end = start + m[0].length;
  if (m[G_NAME] !== undefined) return judgeName(s, start, end);
  if (m[G_PEM] !== undefined) return privateKey(s, start, end);
  if (m[G_URL] !== undefined) return urlPassword(s, end);
  if (m[G_SCHEME] !== undefined) return authScheme(s, end, m[G_SCHEME].toLowerCase() === 'basic');
  if (m[G_SLACK_HOOK] !== undefined) {
    const stop = scanRun(s.text, end, HOOK_PATH_CHARS, 512);
    if (stop - end >= 8 && isVaried(s.text.slice(end, stop), 8)) replaceSpan(s, end, stop, 'slack-webhook');
    return stop;
  }
  const kind = specificKind(m[0]);
  if (kind !== undefined) replaceSpan(s, start, end, kind);
  return end;
}

/** Index of the first character of `table` (or `max` characters on). Non-ASCII never stops. */
function scanUntil(text: string, from: number, table: Uint8Array, max: number): number {
  const limit = Math.min(text.length, from + max);
  let i = from;
  while (i < limit && !inTable(table, text.charCodeAt(i))) i++;
  return i;
}

function scanRun(text: string, from: number, table: Uint8Array, max: number): number {
  const limit = Math.min(text.length, from + max);
  let i = from;
  while (i < limit && inTable(table, text.charCodeAt(i))) i++;
  return i;
}

/** The whole PEM block, through its END line; when the END line is missing, through the base64 body. */
function privateKey(s: State, start: number, headerEnd: number): number {
  const text = s.text;
  const endAt = nextIndexOf(s, '-----END ', headerEnd);
  const nextBegin = nextIndexOf(s, '-----BEGIN ', headerEnd);
  if (endAt !== -1 && endAt - headerEnd <= MAX_PEM_SPAN && (nextBegin === -1 || endAt < nextBegin)) {
    PEM_END.lastIndex = endAt;
    const close = PEM_END.exec(text) !== null ? PEM_END.lastIndex : endAt + 9;
    replaceSpan(s, start, close, 'private-key');
    return close;
  }
  // Truncated: take base64 lines, line breaks (real or JSON-escaped) and RFC 1421 headers.
  let i = headerEnd;
  let lineStart = true;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) {
      i++;
      lineStart = true;
    } else if (c === 92 && (text[i + 1] === 'n' || text[i + 1] === 'r')) {
      i += 2;
      lineStart = true;
    } else if (inTable(BASE64_CHARS, c)) {
      if (lineStart) {
        PEM_HEADER_LINE.lastIndex = i;
        if (PEM_HEADER_LINE.exec(text) !== null) {
          i = PEM_HEADER_LINE.lastIndex;
          continue;
        }
      }
      i++;
      lineStart = false;
    } else break;
  }
  // Leave the line break after the body in place.
  for (;;) {
    if (i > headerEnd && (text[i - 1] === '\n' || text[i - 1] === '\r')) i--;
    else if (i > headerEnd + 1 && text[i - 2] === '\\' && (text[i - 1] === 'n' || text[i - 1] === 'r')) i -= 2;
    else break;
  }
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
  if (!isReference(password) && !isPlaceholder(password)) {
    replaceSpan(s, pwStart, pwEnd, specificKind(password) ?? 'url-password');
  }
  return pwEnd + 1;
}

/** `Bearer <token>` and `Basic <base64>` (headers, curl flags, logs). */
function authScheme(s: State, from: number, basic: boolean): number {
  const text = s.text;
  let stop = scanRun(text, from, SCHEME_TOKEN_CHARS, MAX_QUOTED);
  while (stop < text.length && text[stop] === '=' && stop - from < MAX_QUOTED) stop++;
  const value = text.slice(from, stop);
  if (value.length < 8 || isPlaceholder(value)) return stop;
  const specific = specificKind(value);
  if (specific !== undefined) {
    replaceSpan(s, from, stop, specific);
    return stop;
  }
  const innerUpper = /[a-z][A-Z]/.test(value);
  if (basic) {
    if (/^[A-Za-z0-9+/]+={0,2}$/.test(value) && (hasDigit(value) || innerUpper || value.endsWith('='))) {
      replaceSpan(s, from, stop, 'basic-auth');
    }
  } else if (hasDigit(value) || innerUpper || (value.length >= 16 && /[._~+/-]/.test(value))) {
    replaceSpan(s, from, stop, 'bearer');
  }
  return stop;
}

interface NameInfo {
  kind: 'password' | 'secret';
  aws: boolean;
  azure: boolean;
}

/** Decide whether the last segment of a name (`DB_PASSWORD`, `apiKey`, `x-api-key`) names a secret. */
const nameCache = new Map<string, NameInfo | null>();

/** Memoized: names repeat a lot (`input_tokens`, `apiKey`), and the answer depends on nothing else. */
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
  const words = segment.match(SPLIT_WORDS)?.map((w) => w.toLowerCase());
  if (words === undefined || words.length === 0) return undefined;
  const last = words[words.length - 1];
  if (NOT_SECRET_LAST.has(last) || NOT_SECRET_FIRST.has(words[0])) return undefined;
  if (words.length === 1 && (last === 'pwd' || last === 'oldpwd')) return undefined;
  let secret = false;
  let password = false;
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    let hit = SECRET_SUFFIXES.some((suffix) => w.endsWith(suffix));
    if (!hit && LAST_ONLY.has(w) && i === words.length - 1) {
      if (w === 'key') hit = envStyle || (i > 0 && KEY_QUALIFIERS.has(words[i - 1]));
      else if (w === 'private') hit = envStyle;
      else hit = true;
    }
    if (!hit) continue;
    secret = true;
    if (PASSWORD_WORDS.has(w) || w.endsWith('password') || w.endsWith('passwd') || w.endsWith('passphrase')) {
      password = true;
    }
  }
  if (!secret) return undefined;
  const compact = words.join('');
  return {
    kind: password ? 'password' : 'secret',
    aws: words.includes('secret') && (words.includes('aws') || words.includes('access')),
    azure: compact === 'accountkey' || compact === 'sharedaccesskey',
  };
}

function skipBlanks(text: string, i: number): number {
  const limit = Math.min(text.length, i + MAX_BLANKS);
  while (i < limit && inTable(BLANK, text.charCodeAt(i))) i++;
  return i;
}

function isQuote(c: string | undefined): boolean {
  return c === '"' || c === "'" || c === '`';
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

/**
 * A secret-ish word was hit. Find the whole name around it, an assignment operator after it, and judge the
 * value. Returns where scanning resumes: after a redacted value, or at the start of a kept value so tokens
 * inside it are still found.
 */
function judgeName(s: State, hitStart: number, hitEnd: number): number {
  const text = s.text;
  const n = text.length;
  let b = hitEnd;
  while (b < n && inTable(NAME_CHARS, text.charCodeAt(b))) b++;
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
  // Most hits (`Object.keys(`, `tokens passed`) have no operator: leave before looking left.
  const eq = c === '=' && text[opStart + 1] !== '=' && text[opStart + 1] !== '~';
  const colon = c === ':' && text[opStart + 1] !== ':';
  if (!eq && !colon && !(spaced && !quotedKey)) return b;

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
  let op: 'eq' | 'colon' | 'space';
  let valueStart: number;
  if (eq) {
    op = 'eq';
    valueStart = opStart + (text[opStart + 1] === '>' ? 2 : 1);
  } else if (colon) {
    op = 'colon';
    valueStart = opStart + (text[opStart + 1] === '=' ? 2 : 1);
  } else if (flag || isQuote(c)) {
    op = 'space';
    valueStart = opStart;
  } else return b;

  const tight = op === 'eq' && !spaced && valueStart === opStart + 1 && !inTable(BLANK, text.charCodeAt(valueStart));
  const name = text.slice(a, b);
  const before = a > 0 ? text.charCodeAt(a - 1) : 10;
  const envStyle =
    tight && /^[A-Z][A-Z0-9_]*$/.test(name) && (a === 0 || escapedBreak || inTable(ENV_BEFORE, before));
  const info = classifyName(name.slice(name.lastIndexOf('.') + 1), envStyle);
  if (info === undefined) return b;
  if (op === 'space' && !flag && info.kind !== 'password') return b;
  // Query strings, connection strings and `--flag=value`: the value is a literal, never code.
  const literal = envStyle || info.azure || (tight && (flag || before === 63 || before === 38 || before === 59));
  return judgeValue(s, skipBlanks(text, valueStart), info, envStyle, literal, op, b);
}

function judgeValue(
  s: State,
  start: number,
  info: NameInfo,
  envStyle: boolean,
  literal: boolean,
  op: 'eq' | 'colon' | 'space',
  nameEnd: number,
): number {
  const text = s.text;
  const kindFor = (value: string): RedactionKind => {
    const specific = specificKind(value);
    if (specific !== undefined) return specific;
    if (info.aws && AWS_SECRET_VALUE.test(value)) return 'aws-secret';
    if (info.azure) return 'azure-key';
    return envStyle ? 'dotenv' : info.kind;
  };

  const escapedQuote = text[start] === '\\' && isQuote(text[start + 1]);
  if (escapedQuote || isQuote(text[start])) {
    const quote = escapedQuote ? text[start + 1] : text[start];
    const contentStart = start + (escapedQuote ? 2 : 1);
    const close = closingQuote(text, contentStart, quote, escapedQuote);
    if (close === -1) return Math.max(nameEnd, contentStart);
    const value = text.slice(contentStart, close);
    const keep =
      value.length === 0 ||
      isMarker(value) ||
      isReference(value) ||
      isPlaceholder(value) ||
      KEYWORDS.has(value.toLowerCase()) ||
      (envStyle && quote === '`') ||
      value.includes('${') ||
      (!envStyle && (value.length < 3 || /\s/.test(value)));
    if (keep) return contentStart;
    replaceSpan(s, contentStart, close, kindFor(value));
    return close;
  }

  if (op === 'space' && text[start] === '-') return start;
  let stop = start;
  if (envStyle) {
    stop = scanUntil(text, start, ENV_STOP, MAX_VALUE + 1);
  } else {
    const limit = Math.min(text.length, start + MAX_VALUE + 1);
    stop = scanUntil(text, start, GENERIC_STOP, MAX_VALUE + 1);
    // Base64 padding belongs to the value; `a=b` does not.
    let pad = stop;
    while (pad < limit && pad - stop < 3 && text[pad] === '=') pad++;
    if (pad > stop && (pad === text.length || inTable(GENERIC_STOP, text.charCodeAt(pad)))) stop = pad;
  }
  // Far too long for a secret: skip it whole so scanning stays linear.
  if (stop - start > MAX_VALUE) return stop;
  let end = stop;
  while (end > start && text[end - 1] === '.') end--;
  const value = text.slice(start, end);
  // Whatever is kept is scanned again from its start, so a token inside it is still found.
  if (value.length === 0 || isMarker(value)) return Math.max(nameEnd, start);
  if (value.startsWith('$') && (isReference(value) || text[stop] === '(' || text[stop] === '{')) return start;
  if (isPlaceholder(value) || KEYWORDS.has(value.toLowerCase())) return start;

  const specific = specificKind(value);
  if (specific !== undefined) {
    replaceSpan(s, start, end, specific);
    return stop;
  }
  if (!literal) {
    const code =
      inTable(CODE_AFTER, text.charCodeAt(stop)) ||
      (IDENT_PATH.test(value) && (value.includes('.') || !hasDigit(value))) ||
      TYPE_LIKE.test(value);
    if (code) {
      // `api_key: str = "…"` (Python/TS annotation with a default): judge the default.
      if (op === 'colon' && IDENT_PATH.test(value)) {
        const eq = skipBlanks(text, stop);
        if (text[eq] === '=' && text[eq + 1] !== '=' && text[eq + 1] !== '>') {
          return judgeValue(s, skipBlanks(text, eq + 1), info, false, false, 'eq', nameEnd);
        }
      }
      return start;
    }
    if (/^(?:\/|\.\.?\/|~\/)/.test(value) || value.includes('://')) return start;
    if (value.length < (info.kind === 'password' ? 6 : 8)) return start;
  }
  replaceSpan(s, start, end, kindFor(value));
  return stop;
}
