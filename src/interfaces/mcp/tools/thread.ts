/** MCP tools for saved threads (not built yet). */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Engine } from '../../../app/engine.js';
import type { Guard } from '../server.js';

export function registerSavedThreadsTools(_server: McpServer, _engine: Engine, _guard: Guard): void {}
