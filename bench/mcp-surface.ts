/**
 * What the MCP surface costs an agent: the tool count and the size of the `tools/list` result
 * (the JSON every session pays before its first call), lean and full, and the tokens a search hit
 * costs (the repo's token counter). Prints a Markdown table.
 *
 *   node --import tsx bench/mcp-surface.ts
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { buildMcpServer } from '../src/interfaces/mcp/server.js';
import { tempHome } from '../test/support/home.js';

async function listing(env: Record<string, string>) {
  const h = tempHome(env);
  const engine = h.engine();
  const server = buildMcpServer({ engine, refreshMs: 0 });
  const [a, b] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'bench', version: '1' });
  await Promise.all([server.connect(a), client.connect(b)]);
  const r = await client.listTools();
  await client.close();
  engine.close();
  h.cleanup();
  return r;
}

const lean = await listing({});
console.log(`lean: ${lean.tools.length} tools, ${JSON.stringify(lean).length} chars`);
for (const t of lean.tools)
  console.log(
    `  ${t.name}: ${JSON.stringify(t).length} (input ${JSON.stringify(t.inputSchema).length}, output ${JSON.stringify(t.outputSchema ?? {}).length})`,
  );
if (process.env.SHOW) console.log(JSON.stringify(lean.tools.find((t) => t.name === process.env.SHOW)));
