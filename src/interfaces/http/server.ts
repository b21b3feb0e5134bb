/**
 * Binding the HTTP app to a socket, and taking it down gracefully: stop accepting, let requests
 * in flight finish (bounded), then drop what is left. A non-loopback bind requires API keys,
 * and refuses to start while no key could be used.
 */

import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { Engine } from '../../app/engine.js';
import { isLoopbackHost } from '../../app/loopback.js';
import { invalidInput } from '../../core/errors.js';
import { createHttpApp, type HttpApp, type HttpAppOptions } from './app.js';

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 7420;

export interface HttpServerOptions extends Omit<HttpAppOptions, 'requireKeys'> {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** How long close() waits for requests in flight before dropping connections (default 10 s). */
  shutdownTimeoutMs?: number;
}

export interface RunningServer {
  url: string;
  host: string;
  port: number;
  app: HttpApp;
  /** Whether keys are required (the bind is not loopback). */
  requireKeys: boolean;
  /** Stop accepting, wait for requests in flight (bounded), close every connection. Idempotent. */
  close(): Promise<{ drained: boolean }>;
}

/** Rejects with INVALID_INPUT when `host` is not loopback and no API key is active. */
export async function checkBind(host: string, engine: Engine): Promise<{ requireKeys: boolean }> {
  if (isLoopbackHost(host)) return { requireKeys: false };
  if (!(await engine.keys.hasActiveKeys()))
    throw invalidInput(
      `Binding ${host} makes Tapedeck reachable from other machines, and every request there needs an API key, but no key is active. Create one first (tapedeck keys create --name <name> --scope write), or bind 127.0.0.1.`,
    );
  return { requireKeys: true };
}

export async function startHttpServer(
  engine: Engine,
  {
    host = DEFAULT_HOST,
    port = DEFAULT_PORT,
    shutdownTimeoutMs = 10_000,
    ...appOptions
  }: HttpServerOptions = {},
): Promise<RunningServer> {
  const { requireKeys } = await checkBind(host, engine);
  const app = createHttpApp(engine, { ...appOptions, requireKeys });
  const server = await new Promise<Server>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname: host, port }) as Server;
    s.once('listening', () => resolve(s));
    s.once('error', (e: NodeJS.ErrnoException) =>
      reject(
        e.code === 'EADDRINUSE'
          ? invalidInput(`Port ${port} on ${host} is in use; pick another with --port`)
          : e.code === 'EADDRNOTAVAIL'
            ? invalidInput(`${host} is not an address of this machine`)
            : e,
      ),
    );
  });
  server.keepAliveTimeout = 65_000;
  const info = server.address() as AddressInfo;
  const shown = info.family === 'IPv6' ? `[${info.address}]` : info.address;
  let closing: Promise<{ drained: boolean }> | undefined;

  function close(): Promise<{ drained: boolean }> {
    closing ??= new Promise((resolve) => {
      let cut = false;
      // Keep-alive sockets go idle as their last response is sent; close them as they do.
      const sweep = setInterval(() => server.closeIdleConnections(), 25);
      const timer = setTimeout(() => {
        cut = true;
        server.closeAllConnections();
      }, shutdownTimeoutMs);
      server.close(() => {
        clearInterval(sweep);
        clearTimeout(timer);
        resolve({ drained: !cut });
      });
      server.closeIdleConnections();
    });
    return closing;
  }

  return { url: `http://${shown}:${info.port}`, host, port: info.port, app, requireKeys, close };
}
