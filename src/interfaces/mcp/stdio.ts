/** `tapedeck mcp`: the MCP server over stdio. stdout belongs to JSON-RPC; logs go to stderr. */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { loadBackends } from '../../app/backends.js';
import { type ConfigFlags, loadConfig } from '../../app/config.js';
import { connectEngine } from '../../app/engine.js';
import { buildMcpServer } from './server.js';

export async function startStdioServer(flags: ConfigFlags & { local?: boolean }): Promise<void> {
  const log = (m: string) => process.stderr.write(`tapedeck mcp: ${m}\n`);
  const config = loadConfig(flags);
  await loadBackends(config);
  const engine = connectEngine(config, { local: flags.local });
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
  log(
    `ready (${engine.config.apiUrl ? `client of ${engine.config.apiUrl}` : engine.config.databaseUrl ? engine.stores.location : engine.config.dbPath})`,
  );
}
