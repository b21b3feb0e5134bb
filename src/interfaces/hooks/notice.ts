/**
 * A one-line warning for the user at session start when captures are not getting through (saves
 * failing and queued, failed for good, or the server's circuit open), so a dead setup is noticed
 * the same day, not months later. Cheap: a directory listing and two small files.
 */
import { readBreaker } from './breaker.js';
import { countFiles, scanQueue } from './queue.js';
import type { HookSettings } from './settings.js';

export function problemNotice(s: HookSettings): string | undefined {
  const failing = scanQueue(s.paths).entries.filter((e) => e.item.attempts > 0);
  const failed = countFiles(s.paths.failed);
  const bad = countFiles(s.paths.bad);
  const breaker = s.apiUrl ? readBreaker(s.paths.breaker, s.apiUrl) : undefined;
  const parts: string[] = [];
  if (failing.length > 0)
    parts.push(
      `${failing.length} session${failing.length === 1 ? '' : 's'} waiting to be saved (${failing[0].item.lastError ?? 'retrying'})`,
    );
  if (failed > 0) parts.push(`${failed} save${failed === 1 ? '' : 's'} gave up after repeated failures`);
  if (bad > 0) parts.push(`${bad} corrupted queue file${bad === 1 ? '' : 's'} set aside`);
  if (breaker && breaker.openUntil > Date.now())
    parts.push(`server ${s.apiUrl} unreachable (${breaker.lastError})`);
  if (parts.length === 0) return undefined;
  return `Tapedeck: ${parts.join('; ')}. Run \`tapedeck status\` for details.`;
}
