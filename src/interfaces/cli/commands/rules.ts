/** `hippo` commands for rules (not built yet). */
import type { Command } from 'commander';

export function registerRulesCommands(_program: Command): void {}
