/**
 * Validation of what clients send to save a thread: ids, messages, metadata and request bodies
 * (with the field names other tools use: `thread_id`, `space_id`, content as text parts).
 * Everything is checked before anything is written, and errors name the field and message.
 */
import { createHash } from 'node:crypto';
import { invalidInput } from '../../core/errors.js';
import { redact } from '../../core/redact.js';
import { isRecord, squash } from '../../core/text.js';
import { type AgentId, OTHER_AGENT, type Role, type StepKind, type ThreadAgent } from '../../core/types.js';

export const LIMITS = {
  idChars: 200,
  externalIdChars: 200,
  keyChars: 200,
  titleChars: 300,
  sourceChars: 100,
  spaceChars: 64,
  messagesPerCall: 5_000,
  contentChars: 1_000_000,
  metadataChars: 64_000,
} as const;

/** A message as a client sends it. */
export interface MessageInput {
  role: string;
  content: unknown;
  timestamp?: string | number;
  external_id?: string | number;
}

/** A message ready to store: role, kind, text, time, external id and content key. */
export interface NormalizedMessage {
  role: Role;
  kind: StepKind;
  text: string;
  timestamp: string;
  externalId?: string;
  contentKey: string;
}

const KIND_BY_ROLE: Record<Role, StepKind> = {
  user: 'prompt',
  assistant: 'response',
  system: 'summary',
  tool: 'tool_result',
};
const ROLE_SYNONYMS: Record<string, Role> = {
  user: 'user',
  human: 'user',
  assistant: 'assistant',
  model: 'assistant',
  ai: 'assistant',
  system: 'system',
  developer: 'system',
  tool: 'tool',
  function: 'tool',
};

/** Client app names that are one of Tapedeck's agents. */
const AGENT_BY_SOURCE: Record<string, AgentId> = {
  antigravity: 'antigravity',
  'google-antigravity': 'antigravity',
  'claude-code': 'claude-code',
  claude_code: 'claude-code',
  claudecode: 'claude-code',
  codex: 'codex',
  'codex-cli': 'codex',
  'openai-codex': 'codex',
  'gemini-cli': 'gemini-cli',
  gemini_cli: 'gemini-cli',
};

const CONTROL = /[\u0000-\u001f\u007f]/;

/** A client-given id: 1–200 characters, no control characters, not only spaces. */
export function checkId(value: unknown, what: string, max: number = LIMITS.idChars): string {
  const s = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof s !== 'string' || s.trim() === '') throw invalidInput(`${what} must be a non-empty string`);
  if (s.length > max) throw invalidInput(`${what} is over ${max} characters`);
  if (CONTROL.test(s)) throw invalidInput(`${what} contains control characters`);
  return s;
}

/** A space name: letters, digits, `.`, `_`, `-`, at most 64 characters. */
export function checkSpace(value: unknown): string {
  if (value === undefined || value === null || value === '') return 'default';
  if (
    typeof value !== 'string' ||
    !/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(value) ||
    value.length > LIMITS.spaceChars
  )
    throw invalidInput(
      `space must be 1–${LIMITS.spaceChars} letters, digits, ".", "_" or "-", got "${String(value)}"`,
    );
  return value;
}

/** The agent for a client app name: one of Tapedeck's agents, else `other` (the name is kept as is). */
export function agentForSource(source: string | undefined): ThreadAgent {
  if (!source) return OTHER_AGENT;
  return AGENT_BY_SOURCE[source.trim().toLowerCase()] ?? OTHER_AGENT;
}

export function checkSource(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  return checkId(value, 'source', LIMITS.sourceChars);
}

export function checkTitle(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalidInput('title must be a string');
  const t = squash(redact(value).text);
  if (t === '') return undefined;
  return t.length > LIMITS.titleChars ? `${t.slice(0, LIMITS.titleChars - 1)}…` : t;
}

/** Metadata: a JSON object of at most 64,000 characters, its strings redacted. */
export function checkMetadata(value: unknown): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value)) throw invalidInput('metadata must be a JSON object');
  const text = JSON.stringify(value);
  if (text.length > LIMITS.metadataChars)
    throw invalidInput(`metadata is over ${LIMITS.metadataChars} characters as JSON`);
  const clean = (v: unknown): unknown =>
    typeof v === 'string'
      ? redact(v).text
      : Array.isArray(v)
        ? v.map(clean)
        : isRecord(v)
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, clean(x)]))
          : v;
  return clean(value) as Record<string, unknown>;
}

export function checkCount(value: unknown, what: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
    throw invalidInput(`${what} must be a whole number ≥ 0, got ${JSON.stringify(value)}`);
  return value;
}

/** Text of a content value: a string, `{text}`, or a list of parts (`{type: 'text', text}` or strings). */
function contentText(content: unknown, where: string): string {
  if (typeof content === 'string') return content;
  if (isRecord(content) && typeof content.text === 'string') return content.text;
  if (Array.isArray(content)) {
    const parts = content.map((p) =>
      typeof p === 'string' ? p : isRecord(p) && typeof p.text === 'string' ? p.text : '',
    );
    return parts.filter((p) => p !== '').join('\n');
  }
  throw invalidInput(`${where}: content must be text or a list of text parts`);
}

function timestampOf(value: unknown, where: string, now: number): string {
  if (value === undefined || value === null || value === '') return new Date(now).toISOString();
  const t = typeof value === 'number' ? value : typeof value === 'string' ? Date.parse(value) : Number.NaN;
  if (!Number.isFinite(t))
    throw invalidInput(`${where}: timestamp "${String(value)}" is not a date (use ISO 8601)`);
  return new Date(t).toISOString();
}

/**
 * Deduplication key: role plus a hash of the redacted text with whitespace collapsed, so a replay
 * that differs only in spacing is recognised and no secret is hashed.
 */
export function contentKey(role: Role, text: string): string {
  const normal = squash(redact(text).text);
  return `${role}:${createHash('sha256').update(normal).digest('hex').slice(0, 40)}`;
}

/** Validate and normalize a batch of messages; messages without a timestamp get `now`. */
export function normalizeMessages(
  value: unknown,
  now: number,
  { allowEmpty = false } = {},
): NormalizedMessage[] {
  if (!Array.isArray(value)) throw invalidInput('messages must be a list of {role, content} objects');
  if (value.length === 0 && !allowEmpty) throw invalidInput('messages is empty');
  if (value.length > LIMITS.messagesPerCall)
    throw invalidInput(
      `${value.length} messages in one call; send at most ${LIMITS.messagesPerCall} at a time`,
    );
  return value.map((m, i) => {
    const where = `message ${i + 1}`;
    if (!isRecord(m)) throw invalidInput(`${where} is not an object with role and content`);
    const role = ROLE_SYNONYMS[String(m.role ?? '').toLowerCase()];
    if (!role)
      throw invalidInput(`${where}: role "${String(m.role)}" is not user, assistant, system or tool`);
    const text = contentText(m.content, where);
    if (text.trim() === '') throw invalidInput(`${where} has no text`);
    if (text.length > LIMITS.contentChars)
      throw invalidInput(`${where} is over ${LIMITS.contentChars} characters`);
    const ext = m.external_id ?? m.externalId;
    const externalId =
      ext === undefined || ext === null || ext === ''
        ? undefined
        : checkId(ext, `${where}: external_id`, LIMITS.externalIdChars);
    return {
      role,
      kind: KIND_BY_ROLE[role],
      text,
      timestamp: timestampOf(m.timestamp ?? m.created_at ?? m.createdAt, where, now),
      externalId,
      contentKey: contentKey(role, text),
    };
  });
}

/** The first defined value among synonyms of a field. */
export const pick = (body: Record<string, unknown>, ...names: string[]): unknown =>
  names.map((n) => body[n]).find((v) => v !== undefined && v !== null);

/** A request body: a JSON object, or a bare list of messages. */
export function bodyObject(value: unknown, what: string): Record<string, unknown> {
  if (Array.isArray(value)) return { messages: value };
  if (!isRecord(value))
    throw invalidInput(`${what} must be a JSON object with messages, or a list of messages`);
  return value;
}

/** What `import` takes, from a body in the documented shape (`thread_id`, `space_id` accepted). */
export interface ImportInput {
  id?: string;
  title?: string;
  /** The client app (`claude-code`, `google-antigravity`, `cursor`, …). */
  source?: string;
  project?: string;
  space?: string;
  metadata?: Record<string, unknown>;
  messages: unknown;
  /** Add to an existing saved thread (deduplicated) instead of failing. */
  merge?: boolean;
  idempotencyKey?: string;
}

export interface AppendInput {
  thread: string;
  messages: unknown;
  /** The client's idea of how many messages the thread has; a mismatch writes nothing. */
  expectedMessageCount?: number;
  idempotencyKey?: string;
  /** Skip messages already in the thread (by external id, else role and content). Default true. */
  deduplicate?: boolean;
}

export interface ReconcileInput {
  thread: string;
  /** How many leading messages still match what the client has. */
  matchedCount: number;
  /** The new tail, replacing every message after the first `matchedCount`. */
  messages: unknown;
}

const str = (v: unknown) => (v === undefined || v === null ? undefined : String(v));

export function importInputFrom(value: unknown): ImportInput {
  const b = bodyObject(value, 'The thread');
  return {
    id: str(pick(b, 'id', 'thread_id', 'threadId')),
    title: pick(b, 'title') as string | undefined,
    source: pick(b, 'source', 'source_app', 'app') as string | undefined,
    project: pick(b, 'project', 'cwd', 'workspace') as string | undefined,
    space: pick(b, 'space', 'space_id', 'spaceId') as string | undefined,
    metadata: pick(b, 'metadata') as Record<string, unknown> | undefined,
    messages: b.messages,
    idempotencyKey: str(pick(b, 'idempotency_key', 'idempotencyKey')),
  };
}

export function appendInputFrom(thread: string, value: unknown): AppendInput {
  const b = bodyObject(value, 'The append request');
  const dedupe = pick(b, 'deduplicate', 'dedupe');
  return {
    thread,
    messages: b.messages,
    expectedMessageCount: pick(b, 'expected_message_count', 'expectedMessageCount') as number | undefined,
    idempotencyKey: str(pick(b, 'idempotency_key', 'idempotencyKey')),
    deduplicate: dedupe === undefined ? undefined : dedupe !== false,
  };
}

export function reconcileInputFrom(thread: string, value: unknown, matchedCount?: number): ReconcileInput {
  const b = bodyObject(value, 'The reconcile request');
  return {
    thread,
    matchedCount: (matchedCount ?? pick(b, 'matched_count', 'matchedCount')) as number,
    messages: b.messages ?? pick(b, 'tail'),
  };
}
