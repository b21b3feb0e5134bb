/** `hippo` commands for fs (not built yet). */
import type { Command } from 'commander';

export function registerFsCommands(_program: Command): void {}
