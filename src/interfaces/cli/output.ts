/**
 * CLI output rules: `--json` prints exactly one JSON document on stdout; human text goes to
 * stdout; progress and logs go to stderr. Errors are mapped here, once: exit 1 for a failed
 * command, 2 for bad usage.
 */
import { isTapedeckError } from '../../core/errors.js';
import { toJsonDocument } from '../json-document.js';

// `tapedeck threads | head`: the reader went away; stop quietly instead of a stack trace.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});

/** What a read command says on a machine where nothing was indexed or saved yet. */
export const NOTHING_INDEXED = 'Nothing indexed yet: run `tapedeck index` (or `tapedeck quickstart`).';

/** Print a command's result as its one JSON document (named as every other, see json-document.ts). */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(toJsonDocument(value), null, 2)}\n`);
}

export function print(text = ''): void {
  process.stdout.write(`${text}\n`);
}

export function warn(text: string): void {
  process.stderr.write(`${text}\n`);
}

/** Report an error the way the invocation asked for, and set the exit code. */
export function fail(error: unknown, json: boolean): void {
  const known = isTapedeckError(error);
  const code = known ? error.code : 'INTERNAL';
  const message = known ? error.message : ((error as Error)?.message ?? String(error));
  const usage = known && error.code === 'INVALID_INPUT';
  if (json)
    printJson({ error: { code, message, ...(known && error.details ? { details: error.details } : {}) } });
  else warn(`tapedeck: ${message}`);
  if (!known && process.env.TAPEDECK_DEBUG) warn((error as Error)?.stack ?? '');
  process.exitCode = usage ? 2 : 1;
}

/**
 * A usage error found by commander (unknown command or option, missing argument, bad value):
 * exit 2, and under `--json` the same `{error}` document as every other failure. Without `--json`
 * commander has already written the message and the hint on stderr.
 */
export function failUsage(commanderCode: string, message: string, json: boolean): void {
  if (json) {
    // commander.unknownOption → unknown_option (the JSON contract is snake_case)
    const reason = commanderCode.replace(/^commander\./, '').replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    printJson({
      error: { code: 'USAGE', message: message.replace(/^error: /, ''), details: { reason } },
    });
  }
  process.exitCode = 2;
}

/** Shorten a home-relative path for display. */
export function tildify(path: string | null | undefined): string {
  if (!path) return '';
  const home = process.env.HOME;
  return home && path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
}
