/** Whether an address, a bind host or a Host header names this machine's loopback interface. */
import { isIP } from 'node:net';

/** `::ffff:127.0.0.1` → `127.0.0.1`; other addresses unchanged. */
export const plainAddress = (address: string): string =>
  address.toLowerCase().startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;

/** 127.0.0.0/8 or ::1 (also IPv4-mapped). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const a = plainAddress(address.replace(/^\[|\]$/g, ''));
  if (isIP(a) === 4) return a.startsWith('127.');
  return a === '::1' || a === '0:0:0:0:0:0:0:1';
}

/** A host to bind or a Host header's name: `localhost` or a loopback address. */
export function isLoopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  const h = host.toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || isLoopbackAddress(h);
}

/** The name of a Host header (`[::1]:7420` → `::1`, `localhost:7420` → `localhost`). */
export function hostName(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const m = /^\[([^\]]+)\](?::\d+)?$/.exec(header) ?? /^([^:]+)(?::\d+)?$/.exec(header);
  return m ? m[1] : header;
}

/** Whether a server URL names this machine (`http://127.0.0.1:7420`, `http://localhost:…`, `http://[::1]:…`). */
export function isLoopbackUrl(url: string): boolean {
  try {
    return isLoopbackHost(new URL(url).hostname.replace(/^\[|\]$/g, ''));
  } catch {
    return false;
  }
}
