/** `hippo` commands for skills (not built yet). */
import type { Command } from 'commander';

export function registerSkillsCommands(_program: Command): void {}
