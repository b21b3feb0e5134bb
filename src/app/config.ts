/**
 * Configuration, resolved once: flags > environment (HIPPO_*) > ~/.hippo/config.json > defaults.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { invalidInput } from '../core/errors.js';
import { checkSpaceName } from '../core/spaces.js';
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
  /** HIPPO_SPACE: the space every call works in unless it names one. */
  space?: string;
  /** `spaces` in config.json: project directory (absolute) → default space for work in it. */
  spaces?: Record<string, string>;
}

export interface ConfigFlags {
  home?: string;
  db?: string;
}

function positiveInt(name: string, raw: unknown, fallback: number): number {
  if (raw === undefined || raw === null || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1)
    throw invalidInput(`${name} must be a positive whole number, got "${raw}"`);
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

/** The `spaces` map of config.json, validated: absolute (or ~/) directories to space names. */
function readSpaces(raw: unknown, home: string, file: string): Record<string, string> {
  if (raw === undefined || raw === null) return {};
  if (!isRecord(raw)) throw invalidInput(`"spaces" in ${file} must map project directories to space names`);
  const out: Record<string, string> = {};
  for (const [dir, space] of Object.entries(raw)) {
    if (typeof space !== 'string')
      throw invalidInput(`"spaces" in ${file}: the space for ${dir} must be a string`);
    checkSpaceName(space, `space for ${dir} in ${file}`);
    const expanded = dir === '~' ? home : dir.startsWith('~/') ? join(home, dir.slice(2)) : dir;
    if (!isAbsolute(expanded))
      throw invalidInput(`"spaces" in ${file}: ${dir} must be an absolute directory`);
    out[resolve(expanded)] = space;
  }
  return out;
}

export function loadConfig(
  flags: ConfigFlags = {},
  env: Readonly<Record<string, string | undefined>> = process.env,
): HippoConfig {
  const home = resolve(env.HOME || homedir());
  const hippoHome = resolve(flags.home ?? env.HIPPO_HOME ?? join(home, '.hippo'));
  const configPath = join(hippoHome, 'config.json');
  const file = readConfigFile(configPath);
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
  const busyTimeoutMs = positiveInt(
    'HIPPO_BUSY_TIMEOUT_MS',
    env.HIPPO_BUSY_TIMEOUT_MS ?? file.busyTimeoutMs,
    10_000,
  );
  const spaces = readSpaces(file.spaces, home, configPath);
  const space = env.HIPPO_SPACE?.trim() || undefined;
  return { hippoHome, dbPath, home, env, policy, busyTimeoutMs, space, spaces };
}
