/**
 * Configuration, resolved once: flags > environment (HIPPO_*) > ~/.hippo/config.json > defaults.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { invalidInput } from '../core/errors.js';
import { isRecord } from '../core/text.js';
import { DEFAULT_POLICY, type IndexPolicy } from '../ingest/prepare-step.js';

export interface HippoConfig {
  /** Where Hippo keeps its data (HIPPO_HOME, default ~/.hippo). */
  hippoHome: string;
  /** The SQLite file. */
  dbPath: string;
  /** The user's home, where agents keep transcripts. */
  home: string;
  env: Readonly<Record<string, string | undefined>>;
  policy: IndexPolicy;
  /** How long a write waits for another writer before failing (HIPPO_BUSY_TIMEOUT_MS). */
  busyTimeoutMs: number;
}

export interface ConfigFlags {
  home?: string;
  db?: string;
}

function positiveInt(name: string, raw: unknown, fallback: number): number {
  if (raw === undefined || raw === null || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw invalidInput(`${name} must be a positive whole number, got "${raw}"`);
  return n;
}

function readConfigFile(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return {};
  }
  try {
    const v = JSON.parse(text);
    if (isRecord(v)) return v;
  } catch {
    // fall through to the error below
  }
  throw invalidInput(`${path} is not a JSON object; fix or remove it`);
}

export function loadConfig(
  flags: ConfigFlags = {},
  env: Readonly<Record<string, string | undefined>> = process.env,
): HippoConfig {
  const home = env.HOME || homedir();
  const hippoHome = resolve(flags.home ?? env.HIPPO_HOME ?? join(home, '.hippo'));
  const file = readConfigFile(join(hippoHome, 'config.json'));
  const policy: IndexPolicy = {
    maxTextChars: positiveInt(
      'maxTextChars',
      env.HIPPO_MAX_TEXT_CHARS ?? file.maxTextChars,
      DEFAULT_POLICY.maxTextChars,
    ),
    toolOutputChars: positiveInt(
      'toolOutputChars',
      env.HIPPO_TOOL_OUTPUT_CHARS ?? file.toolOutputChars,
      DEFAULT_POLICY.toolOutputChars,
    ),
  };
  const dbPath = resolve(flags.db ?? env.HIPPO_DB ?? join(hippoHome, 'hippo.db'));
  const busyTimeoutMs = positiveInt('HIPPO_BUSY_TIMEOUT_MS', env.HIPPO_BUSY_TIMEOUT_MS ?? file.busyTimeoutMs, 10_000);
  return { hippoHome, dbPath, home, env, policy, busyTimeoutMs };
}
