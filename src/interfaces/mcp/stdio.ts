/** `hippo mcp`: the MCP server over stdio. stdout belongs to JSON-RPC; logs go to stderr. */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { loadConfig } from '../../app/config.js';
import { createEngine } from '../../app/engine.js';
import { buildMcpServer } from './server.js';

export async function startStdioServer(flags: { home?: string; db?: string }): Promise<void> {
  const log = (m: string) => process.stderr.write(`hippo mcp: ${m}\n`);
  const engine = createEngine(loadConfig(flags));
  const server = buildMcpServer({ engine, log });
  const transport = new StdioServerTransport();
  const shutdown = async () => {
    await server.close().catch(() => {});
    engine.close();
    process.exit(0);
  };
  process.stdin.on('end', shutdown);
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  await server.connect(transport);
  log(`ready (${engine.config.dbPath})`);
}
