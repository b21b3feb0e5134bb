/**
 * The MCP server over Streamable HTTP at /mcp, stateless: each POST gets a fresh transport and
 * a server over the caller's scoped engine (so keys see only their spaces through MCP too), and a
 * JSON answer. There are no sessions, so GET (a server-to-client stream) and DELETE (end a
 * session) are 405, which MCP clients take as "no stream offered".
 *
 * Building the server (registering every tool and its schemas) costs ~14 ms, more than the call
 * itself, so servers are pooled per scoped engine: a server serves one transport at a time and
 * is closed (transport detached) before it goes back to the pool.
 */

import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Context } from 'hono';
import type { Engine } from '../../../app/engine.js';
import { buildMcpServer } from '../../mcp/server.js';
import { tooLarge } from '../body.js';
import type { RoutesContext } from '../context.js';
import type { HttpEnv } from '../env.js';

/** Idle servers kept per scoped engine. */
const POOL_SIZE = 8;

export function registerMcpRoutes({ app, fresh, threadBodyLimit, log }: RoutesContext): void {
  const pools = new WeakMap<Engine, McpServer[]>();

  async function withServer<T>(engine: Engine, fn: (server: McpServer) => Promise<T>): Promise<T> {
    const pool = pools.get(engine) ?? [];
    pools.set(engine, pool);
    const server = pool.pop() ?? buildMcpServer({ engine, refreshMs: 0, log });
    try {
      return await fn(server);
    } finally {
      await server.close().catch(() => {});
      if (pool.length < POOL_SIZE) pool.push(server);
    }
  }

  async function handle(c: Context<HttpEnv>): Promise<Response> {
    if (c.req.method !== 'POST')
      return c.json(
        {
          jsonrpc: '2.0',
          error: {
            code: -32000,
            message: 'Method not allowed: this MCP endpoint is stateless; POST JSON-RPC messages',
          },
          id: null,
        },
        405,
        { Allow: 'POST' },
      );
    const declared = Number(c.req.header('content-length') ?? 0);
    if (declared > threadBodyLimit) throw tooLarge(threadBodyLimit);
    fresh();
    return withServer(c.get('engine'), async (server) => {
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
        maxRequestBodySize: threadBodyLimit,
      });
      await server.connect(transport);
      return transport.handleRequest(c.req.raw);
    });
  }
  app.on(['GET', 'POST', 'DELETE'], ['/mcp', '/mcp/'], handle);
}
