/**
 * MCP tools of the knowledge engine. Each domain registers its tools from tools/<domain>.ts; read
 * tools carry readOnlyHint, writes destructiveHint false, deletes destructiveHint true.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Engine } from '../../app/engine.js';
import type { Guard } from './server.js';
import { registerContextBundleTools } from './tools/context.js';
import { registerFsTools } from './tools/fs.js';
import { registerMemoriesTools } from './tools/memory.js';
import { registerPortabilityTools } from './tools/portability.js';
import { registerRulesTools } from './tools/rules.js';
import { registerSkillsTools } from './tools/skills.js';
import { registerSavedThreadsTools } from './tools/thread.js';
import { registerWikiTools } from './tools/wiki.js';
import { registerWorkingMemoryTools } from './tools/wm.js';

export function registerKnowledgeTools(server: McpServer, engine: Engine, guard: Guard): void {
  registerMemoriesTools(server, engine, guard);
  registerRulesTools(server, engine, guard);
  registerSkillsTools(server, engine, guard);
  registerWikiTools(server, engine, guard);
  registerSavedThreadsTools(server, engine, guard);
  registerWorkingMemoryTools(server, engine, guard);
  registerContextBundleTools(server, engine, guard);
  registerFsTools(server, engine, guard);
  registerPortabilityTools(server, engine, guard);
}
