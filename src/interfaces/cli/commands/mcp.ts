import type { GlobalFlags } from '../context.js';

/** `tapedeck mcp`: the MCP server over stdio. stdout carries only JSON-RPC from here on. */
export async function runMcp(flags: GlobalFlags): Promise<void> {
  const { startStdioServer } = await import('../../mcp/stdio.js');
  await startStdioServer({
    home: flags.home,
    db: flags.db,
    apiUrl: flags.apiUrl,
    apiKey: flags.apiKey,
    local: flags.local,
  });
}
