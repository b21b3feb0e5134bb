/** `hippo` commands for context bundle (not built yet). */
import type { Command } from 'commander';

export function registerContextBundleCommands(_program: Command): void {}
