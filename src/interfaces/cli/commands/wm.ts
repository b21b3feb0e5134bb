/** `hippo` commands for working memory (not built yet). */
import type { Command } from 'commander';

export function registerWorkingMemoryCommands(_program: Command): void {}
