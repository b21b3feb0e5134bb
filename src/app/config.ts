/**
 * Configuration, resolved once: flags > environment (TAPEDECK_*) > ~/.tapedeck/config.json > defaults.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { invalidInput } from '../core/errors.js';
import { checkSpaceName } from '../core/spaces.js';
import { isRecord } from '../core/text.js';
import { DEFAULT_POLICY, type IndexPolicy } from '../ingest/prepare-step.js';

export interface TapedeckConfig {
  /** Where Tapedeck keeps its data (TAPEDECK_HOME, default ~/.tapedeck). */
  tapedeckHome: string;
  /** The SQLite file (unused when `databaseUrl` is set). */
  dbPath: string;
  /** A PostgreSQL server to keep everything in instead of the file (`--db postgres://…`, TAPEDECK_DATABASE_URL). */
  databaseUrl?: string;
  /** Client mode: a Tapedeck server to send every call to (TAPEDECK_API_URL) and its key (TAPEDECK_API_KEY). */
  apiUrl?: string;
  apiKey?: string;
  /** The user's home, where agents keep transcripts. */
  home: string;
  env: Readonly<Record<string, string | undefined>>;
  policy: IndexPolicy;
  /** How long a write waits for another writer before failing (TAPEDECK_BUSY_TIMEOUT_MS). */
  busyTimeoutMs: number;
  /** TAPEDECK_SPACE: the space every call works in unless it names one. */
  space?: string;
  /** `spaces` in config.json: project directory (absolute) → default space for work in it. */
  spaces?: Record<string, string>;
  /**
   * Keep a compressed copy of every indexed transcript in `<home>/archive` (default on; off with
   * `"archive": false` in config.json or TAPEDECK_ARCHIVE=0).
   */
  archive: boolean;
  /**
   * The MCP tool surface: `lean` (default: a few task tools an agent can afford to list) or
   * `full` (every fine-grained tool too). TAPEDECK_MCP_TOOLS or `mcpTools` in config.json.
   */
  mcpTools: McpToolSet;
}

export const MCP_TOOL_SETS = ['lean', 'full'] as const;
export type McpToolSet = (typeof MCP_TOOL_SETS)[number];

export interface ConfigFlags {
  home?: string;
  /** A SQLite file path or a postgres:// URL. */
  db?: string;
  apiUrl?: string;
  apiKey?: string;
}

export const isDatabaseUrl = (s: string) => /^postgres(ql)?:\/\//i.test(s);

function checkUrl(
  name: string,
  raw: string | undefined,
  pattern: RegExp,
  example: string,
): string | undefined {
  const v = raw?.trim();
  if (!v) return undefined;
  if (!pattern.test(v)) throw invalidInput(`${name} must look like ${example}, got "${v.slice(0, 40)}"`);
  try {
    new URL(v);
  } catch {
    throw invalidInput(`${name} is not a valid URL`);
  }
  return v;
}

function optionalString(name: string, raw: unknown, file: string): string | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'string') throw invalidInput(`"${name}" in ${file} must be a string`);
  return raw;
}

function positiveInt(name: string, raw: unknown, fallback: number): number {
  if (raw === undefined || raw === null || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1)
    throw invalidInput(`${name} must be a positive whole number, got "${raw}"`);
  return n;
}

/** An on/off setting: the variable (1/0, true/false, on/off) wins over config.json's boolean; on by default. */
function readSwitch(
  envName: string,
  envValue: string | undefined,
  key: string,
  fileValue: unknown,
  file: string,
): boolean {
  const v = envValue?.trim().toLowerCase();
  if (v) {
    if (['1', 'true', 'on', 'yes'].includes(v)) return true;
    if (['0', 'false', 'off', 'no'].includes(v)) return false;
    throw invalidInput(`${envName} must be 1 or 0, got "${envValue}"`);
  }
  if (fileValue === undefined || fileValue === null) return true;
  if (typeof fileValue !== 'boolean') throw invalidInput(`"${key}" in ${file} must be true or false`);
  return fileValue;
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
): TapedeckConfig {
  const home = resolve(env.HOME || homedir());
  const tapedeckHome = resolve(flags.home ?? env.TAPEDECK_HOME ?? join(home, '.tapedeck'));
  const configPath = join(tapedeckHome, 'config.json');
  const file = readConfigFile(configPath);
  const policy: IndexPolicy = {
    maxTextChars: positiveInt(
      'maxTextChars',
      env.TAPEDECK_MAX_TEXT_CHARS ?? file.maxTextChars,
      DEFAULT_POLICY.maxTextChars,
    ),
    toolOutputChars: positiveInt(
      'toolOutputChars',
      env.TAPEDECK_TOOL_OUTPUT_CHARS ?? file.toolOutputChars,
      DEFAULT_POLICY.toolOutputChars,
    ),
  };
  const dbFlag = flags.db?.trim();
  const dbPath = resolve(
    dbFlag && !isDatabaseUrl(dbFlag) ? dbFlag : (env.TAPEDECK_DB ?? join(tapedeckHome, 'tapedeck.db')),
  );
  const databaseUrl = checkUrl(
    dbFlag ? '--db' : env.TAPEDECK_DATABASE_URL ? 'TAPEDECK_DATABASE_URL' : 'databaseUrl',
    dbFlag
      ? isDatabaseUrl(dbFlag)
        ? dbFlag
        : undefined
      : (env.TAPEDECK_DATABASE_URL ??
          (env.TAPEDECK_DB ? undefined : optionalString('databaseUrl', file.databaseUrl, configPath))),
    /^postgres(ql)?:\/\//i,
    'postgres://user:password@host:5432/database',
  );
  const apiUrl = checkUrl(
    flags.apiUrl ? '--api-url' : env.TAPEDECK_API_URL ? 'TAPEDECK_API_URL' : 'apiUrl',
    flags.apiUrl ?? env.TAPEDECK_API_URL ?? optionalString('apiUrl', file.apiUrl, configPath),
    /^https?:\/\//i,
    'http://127.0.0.1:7420',
  );
  const apiKey =
    (flags.apiKey ?? env.TAPEDECK_API_KEY ?? optionalString('apiKey', file.apiKey, configPath))?.trim() ||
    undefined;
  const busyTimeoutMs = positiveInt(
    'TAPEDECK_BUSY_TIMEOUT_MS',
    env.TAPEDECK_BUSY_TIMEOUT_MS ?? file.busyTimeoutMs,
    10_000,
  );
  const spaces = readSpaces(file.spaces, home, configPath);
  const space = env.TAPEDECK_SPACE?.trim() || undefined;
  const archive = readSwitch('TAPEDECK_ARCHIVE', env.TAPEDECK_ARCHIVE, 'archive', file.archive, configPath);
  const mcpTools = env.TAPEDECK_MCP_TOOLS?.trim() || optionalString('mcpTools', file.mcpTools, configPath);
  if (mcpTools !== undefined && !(MCP_TOOL_SETS as readonly string[]).includes(mcpTools))
    throw invalidInput(`mcpTools (TAPEDECK_MCP_TOOLS) must be lean or full, got "${mcpTools.slice(0, 40)}"`);
  return {
    archive,
    tapedeckHome,
    dbPath,
    databaseUrl,
    apiUrl,
    apiKey,
    home,
    env,
    policy,
    busyTimeoutMs,
    space,
    spaces,
    mcpTools: (mcpTools as McpToolSet | undefined) ?? 'lean',
  };
}
