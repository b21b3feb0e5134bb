/**
 * Commands of the knowledge engine. Each domain registers its own commands from its own module.
 */
import type { Command } from 'commander';
import { registerContextBundleCommands } from './commands/context.js';
import { registerFsCommands } from './commands/fs.js';
import { registerMemoriesCommands } from './commands/memory.js';
import { registerPortabilityCommands } from './commands/portability.js';
import { registerRulesCommands } from './commands/rules.js';
import { registerServeCommands } from './commands/serve.js';
import { registerSkillsCommands } from './commands/skills.js';
import { registerSavedThreadsCommands } from './commands/thread.js';
import { registerWikiCommands } from './commands/wiki.js';
import { registerWorkingMemoryCommands } from './commands/wm.js';

export function registerKnowledgeCommands(program: Command): void {
  registerMemoriesCommands(program);
  registerRulesCommands(program);
  registerSkillsCommands(program);
  registerWikiCommands(program);
  registerSavedThreadsCommands(program);
  registerWorkingMemoryCommands(program);
  registerContextBundleCommands(program);
  registerFsCommands(program);
  registerPortabilityCommands(program);
  registerServeCommands(program);
}
