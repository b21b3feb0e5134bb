/**
 * `tapedeck export DIR` and `tapedeck import DIR`: one portable folder (JSON Lines plus Markdown) with
 * memories, rules, skills, wiki pages, saved threads and working-memory edits. Declared here; the
 * actions load portability-run.ts when they run.
 */
import { type Command, Option } from 'commander';
import { action, jsonOpt } from '../define.js';

const run = () => import('./portability-run.js');

export function registerPortabilityCommands(program: Command): void {
  program
    .command('export')
    .description(
      'write memories, rules, skills, wiki pages, saved threads and working-memory edits to a folder',
    )
    .argument('<dir>', 'a new or empty folder')
    .addOption(
      new Option(
        '--space <name>',
        'the space to export (default: TAPEDECK_SPACE, the project mapping, or default)',
      ),
    )
    .option('--all-spaces', 'every space')
    .addOption(jsonOpt())
    .action(action(async (flags, dir: string) => (await run()).runExport(dir, flags)));

  program
    .command('import')
    .description(
      'restore a folder written by `tapedeck export` (all or nothing; importing twice changes nothing)',
    )
    .argument('<dir>', 'the export folder')
    .option('--space <name>', 'put every record into this space instead of the one it came from')
    .option('--dry-run', 'validate and compare only; write nothing')
    .addOption(jsonOpt())
    .action(action(async (flags, dir: string) => (await run()).runImport(dir, flags)));
}
