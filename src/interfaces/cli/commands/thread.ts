/** `hippo` commands for saved threads (not built yet). */
import type { Command } from 'commander';

export function registerSavedThreadsCommands(_program: Command): void {}
