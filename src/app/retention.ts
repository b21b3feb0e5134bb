/**
 * The retention guard: Claude Code deletes transcripts older than `cleanupPeriodDays` (30 when
 * unset) at startup. `doctor` and `install claude-code` read that setting, count the sessions it
 * will delete in the next 7 days and say whether Tapedeck's archive holds them whole. Tapedeck
 * never changes the setting by itself (`install claude-code --retention-days N` is the one way).
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Engine } from './engine.js';

/** Claude Code's default when `cleanupPeriodDays` is unset. */
export const CLAUDE_DEFAULT_RETENTION_DAYS = 30;
const HORIZON_DAYS = 7;
const DAY_MS = 86_400_000;

export interface RetentionReport {
  agent: 'claude-code';
  settings: string;
  cleanupPeriodDays: number;
  /** False when the setting is unset (or unreadable) and Claude Code's default applies. */
  configured: boolean;
  /** Claude Code transcripts on disk. */
  sessions: number;
  /** Of those, how many Claude Code deletes within the next 7 days (already due ones included). */
  dueWithin7Days: number;
  /** Of the due ones, how many the archive holds whole (restorable after the deletion). */
  archived: number;
  /** Due and not archived (at most 20 paths): lost when Claude Code cleans up. */
  notArchived: string[];
  /** Set when settings.json exists but could not be read as JSON. */
  problem?: string;
}

/** Claude Code's user settings file (`${CLAUDE_CONFIG_DIR:-~/.claude}/settings.json`). */
export function claudeSettingsPath(home: string, env: Readonly<Record<string, string | undefined>>): string {
  return join(env.CLAUDE_CONFIG_DIR?.trim() || join(home, '.claude'), 'settings.json');
}

/** Read `cleanupPeriodDays`; unset, unreadable or not a positive number means the default. */
export function readCleanupPeriodDays(settings: string): {
  days: number;
  configured: boolean;
  problem?: string;
} {
  let text: string;
  try {
    text = readFileSync(settings, 'utf8');
  } catch {
    return { days: CLAUDE_DEFAULT_RETENTION_DAYS, configured: false };
  }
  try {
    const v = (JSON.parse(text) as Record<string, unknown> | null)?.cleanupPeriodDays;
    if (typeof v === 'number' && Number.isFinite(v) && v >= 0) return { days: v, configured: true };
    return { days: CLAUDE_DEFAULT_RETENTION_DAYS, configured: false };
  } catch (e) {
    return {
      days: CLAUDE_DEFAULT_RETENTION_DAYS,
      configured: false,
      problem: `${settings} is not plain JSON (${(e as Error).message})`,
    };
  }
}

/** How Claude Code's cleanup stands against this machine's transcripts and the archive. */
export function retentionReport(engine: Engine, now = Date.now()): RetentionReport {
  const { home, env } = engine.locateEnv;
  const settings = claudeSettingsPath(home, env);
  const { days, configured, problem } = readCleanupPeriodDays(settings);
  const files = engine.locate(['claude-code'])['claude-code'] ?? [];
  // Deleted once older than `days`: anything last written before this instant goes within 7 days.
  const cutoff = now - (days - HORIZON_DAYS) * DAY_MS;
  let due = 0;
  let archived = 0;
  const notArchived: string[] = [];
  for (const f of files) {
    const st = statSync(f.path, { throwIfNoEntry: false });
    if (!st?.isFile() || st.mtimeMs >= cutoff) continue;
    due++;
    const entry = engine.archive?.entry(f.path);
    if (entry && entry.size >= st.size) archived++;
    else if (notArchived.length < 20) notArchived.push(f.path);
  }
  return {
    agent: 'claude-code',
    settings,
    cleanupPeriodDays: days,
    configured,
    sessions: files.length,
    dueWithin7Days: due,
    archived,
    notArchived,
    ...(problem ? { problem } : {}),
  };
}

/** One line for people: what Claude Code will delete soon and whether it is safe. */
export function formatRetention(r: RetentionReport): string {
  const setting = `cleanupPeriodDays ${r.cleanupPeriodDays}${r.configured ? '' : ' (unset: Claude Code’s default)'}`;
  if (r.dueWithin7Days === 0)
    return `Claude Code retention: ${setting}; none of ${r.sessions} sessions is deleted in the next 7 days.`;
  const safe =
    r.archived === r.dueWithin7Days
      ? 'all archived (restorable with `tapedeck restore`)'
      : `${r.dueWithin7Days - r.archived} NOT archived — run \`tapedeck index\` now, or keep them longer with \`tapedeck install claude-code --retention-days N\``;
  return `Claude Code retention: ${setting}; ${r.dueWithin7Days} of ${r.sessions} sessions are deleted within 7 days: ${safe}.`;
}
