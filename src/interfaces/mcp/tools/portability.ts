/**
 * Export and import have no MCP tools, on purpose: they read and write folders on this machine
 * (host paths an agent should not pick) and move a whole store at once. They are the CLI's
 * `tapedeck export DIR` and `tapedeck import DIR` (docs/export.md).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Engine } from '../../../app/engine.js';
import type { Guard } from '../server.js';

export function registerPortabilityTools(_server: McpServer, _engine: Engine, _guard: Guard): void {}
