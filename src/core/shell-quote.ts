/**
 * Quote a command line for the shell a host runs hook commands with: `sh -c` on macOS and Linux,
 * `cmd.exe` on Windows. Every argument is quoted, so paths with spaces, quotes or non-ASCII
 * letters pass through unchanged.
 */
import { invalidInput } from './errors.js';

const SAFE = /^[A-Za-z0-9_/.:=@%+,-]+$/;

/** POSIX: as is when only safe characters, else single quotes (a quote inside written as '\''). */
export const posixQuote = (arg: string) => (SAFE.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`);

/** cmd.exe: double quotes; a path cannot hold `"`, and `%` would be expanded, so both are refused. */
export function windowsQuote(arg: string): string {
  if (/["%\r\n]/.test(arg)) throw invalidInput(`Cannot quote ${JSON.stringify(arg)} for cmd.exe`);
  return SAFE.test(arg) ? arg : `"${arg}"`;
}

export function shellCommand(args: string[], platform: string): string {
  const q = platform === 'win32' ? windowsQuote : posixQuote;
  return args.map(q).join(' ');
}
