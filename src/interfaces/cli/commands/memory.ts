/** `hippo` commands for memories (not built yet). */
import type { Command } from 'commander';

export function registerMemoriesCommands(_program: Command): void {}
