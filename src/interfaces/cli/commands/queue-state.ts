/**
 * The hook queue as `GET /v1/doctor` reports it from `tapedeck serve`: file counts only (reading
 * the items is `tapedeck status`'s job, and moving unreadable ones aside is not a status read's).
 */
import { countFiles } from '../../hooks/queue.js';
import { hookPaths } from '../../hooks/settings.js';

/** A function that counts the queue's files under `tapedeckHome` each time it is called. */
export function queueStateOf(tapedeckHome: string): () => Record<string, number | string> {
  const paths = hookPaths(tapedeckHome);
  return () => ({
    waiting: countFiles(paths.queue),
    processing: countFiles(paths.processing),
    failed: countFiles(paths.failed),
    corrupted: countFiles(paths.bad),
    directory: paths.queue,
  });
}
