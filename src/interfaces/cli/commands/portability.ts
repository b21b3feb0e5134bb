/** `hippo` commands for portability (not built yet). */
import type { Command } from 'commander';

export function registerPortabilityCommands(_program: Command): void {}
