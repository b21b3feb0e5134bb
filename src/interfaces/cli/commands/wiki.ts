/** `hippo` commands for wiki (not built yet). */
import type { Command } from 'commander';

export function registerWikiCommands(_program: Command): void {}
