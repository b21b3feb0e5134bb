/** Test support for the HTTP server: an engine in a temporary home, served on 127.0.0.1:0. */
import type { Engine } from '../../src/app/engine.js';
import { readLocalToken } from '../../src/app/local-token.js';
import {
  type HttpServerOptions,
  type RunningServer,
  startHttpServer,
} from '../../src/interfaces/http/server.js';
import { type TempHome, tempHome } from './home.js';

/** A response's JSON body, typed loosely: tests check it field by field. */
// biome-ignore lint/suspicious/noExplicitAny: see above
export const json = async (r: Response): Promise<any> => r.json();

export interface ServedHome {
  h: TempHome;
  engine: Engine;
  server: RunningServer;
  url: string;
  /** The owner token the server created in its home (what the CLI and hooks send on their own). */
  token: string;
  /**
   * fetch against the server; `key` goes in as a bearer token (the owner token when none is given,
   * as the CLI does; `anonymous` sends none), `json` as the body.
   */
  req(
    path: string,
    init?: {
      method?: string;
      key?: string;
      anonymous?: boolean;
      json?: unknown;
      headers?: Record<string, string>;
    },
  ): Promise<Response>;
  stop(): Promise<void>;
}

export async function serveHome(options: HttpServerOptions = {}): Promise<ServedHome> {
  const h = tempHome();
  const engine = h.engine();
  const server = await startHttpServer(engine, { port: 0, log: () => {}, ...options });
  const url = server.url;
  const token = readLocalToken(h.tapedeckHome) ?? '';
  return {
    h,
    engine,
    server,
    url,
    token,
    req(path, { method, key, anonymous = false, json, headers = {} } = {}) {
      const bearer = anonymous ? undefined : (key ?? (token || undefined));
      return fetch(url + path, {
        method: method ?? (json === undefined ? 'GET' : 'POST'),
        headers: {
          ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
          ...(json === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        body: json === undefined ? undefined : JSON.stringify(json),
      });
    },
    async stop() {
      await server.close();
      engine.close();
      h.cleanup();
    },
  };
}
