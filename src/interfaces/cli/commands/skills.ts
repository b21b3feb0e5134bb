/**
 * `tapedeck skills …`: SKILL.md bundles with versions, stages, evidence, tests, outcomes and a trust
 * badge. Declared here; each action loads skills-run.ts (and the engine) only when it runs.
 */
import { type Command, Option } from 'commander';
import { action, jsonOpt } from '../define.js';

const run = () => import('./skills-run.js');
const spaceOpt = () =>
  new Option('--space <name>', 'space to work in (default: TAPEDECK_SPACE, the project mapping, or default)');
const noteOpt = () => new Option('--note <text>', 'why: kept with the version, check or outcome');
const versionOpt = (what: string) => new Option('--version <n>', what);

/** Options that give a skill's text as fields instead of a whole SKILL.md. */
function fieldOpts(cmd: Command): Command {
  return cmd
    .option('--name <name>', 'skill name (kebab-case, 1-64 characters)')
    .option('--description <text>', 'one line saying when to use the skill')
    .option('--body <markdown>', 'the instructions (Markdown)')
    .option('--body-file <file>', 'read the body from a file (- for standard input)');
}

export function registerSkillsCommands(program: Command): void {
  const skills = program
    .command('skills')
    .description(
      'reusable SKILL.md procedures: find one for a task, load it, record how it went, install it',
    );

  fieldOpts(
    skills
      .command('add')
      .description(
        'add a skill from a SKILL.md file (or - for standard input), or from --name/--description/--body',
      )
      .argument('[file]', 'SKILL.md to read'),
  )
    .option('--stage <stage>', 'draft, active (default) or archived')
    .addOption(noteOpt())
    .addOption(spaceOpt())
    .addOption(jsonOpt())
    .action(action(async (flags, file?: string) => (await run()).runAdd(file, flags)));

  skills
    .command('list')
    .description('skills with stage, version and trust badge (archived ones only with --all)')
    .option('--stage <stage>', 'only this stage: draft, active or archived')
    .option('--all', 'include archived skills')
    .addOption(spaceOpt())
    .addOption(jsonOpt())
    .action(action(async (flags) => (await run()).runList(flags)));

  skills
    .command('find')
    .description('rank skills for a task description: name, one line, badge')
    .argument('<task...>', 'what you are about to do')
    .option('--limit <n>', 'how many (default 5, at most 50)')
    .option('--archived', 'include archived skills')
    .addOption(spaceOpt())
    .addOption(jsonOpt())
    .action(action(async (flags, words: string[]) => (await run()).runFind(words.join(' '), flags)));

  skills
    .command('suggest')
    .description(
      'skills that fit a workspace (build files, CI, languages, recent commits) and a task, with why',
    )
    .argument('[dir]', 'workspace folder (default: the current directory)')
    .option('--task <text>', 'what you are about to do')
    .option('--limit <n>', 'how many (default 5, at most 50)')
    .addOption(spaceOpt())
    .addOption(jsonOpt())
    .action(action(async (flags, dir?: string) => (await run()).runSuggest(dir, flags)));

  skills
    .command('load')
    .description(
      'a skill for this turn only: its body as one block with name and trust badge; writes nothing',
    )
    .argument('<name>', 'skill name')
    .addOption(spaceOpt())
    .addOption(jsonOpt())
    .action(action(async (flags, name: string) => (await run()).runLoad(name, flags)));

  skills
    .command('show')
    .description("a skill's body and record (evidence, tests, outcomes, versions, proposals)")
    .argument('<name>', 'skill name')
    .addOption(versionOpt('show this earlier version (write --version=N)'))
    .option('--raw', 'print the SKILL.md exactly as stored, nothing else')
    .addOption(spaceOpt())
    .addOption(jsonOpt())
    .action(action(async (flags, name: string) => (await run()).runShow(name, flags)));

  fieldOpts(
    skills
      .command('update')
      .description('change a skill (new SKILL.md, description or body): a new version when the text changes')
      .argument('<name>', 'skill name')
      .argument('[file]', 'new SKILL.md (- for standard input)'),
  )
    .addOption(noteOpt())
    .addOption(spaceOpt())
    .addOption(jsonOpt())
    .action(action(async (flags, name: string, file?: string) => (await run()).runUpdate(name, file, flags)));

  skills
    .command('stage')
    .description('move a skill to draft, active or archived')
    .argument('<name>', 'skill name')
    .argument('<stage>', 'draft, active or archived')
    .addOption(spaceOpt())
    .addOption(jsonOpt())
    .action(action(async (flags, name: string, stage: string) => (await run()).runStage(name, stage, flags)));

  skills
    .command('evidence')
    .description('link evidence (tapedeck://memory/<id>, tapedeck://thread/<id>#<step>); no links: list it')
    .argument('<name>', 'skill name')
    .argument('[links...]', 'evidence links')
    .option('--remove', 'remove these links instead')
    .addOption(noteOpt())
    .addOption(spaceOpt())
    .addOption(jsonOpt())
    .action(
      action(async (flags, name: string, links: string[]) => (await run()).runEvidence(name, links, flags)),
    );

  skills
    .command('test')
    .description('define a test case (--check) and/or record its result (--passed | --failed)')
    .argument('<name>', 'skill name')
    .argument('<test>', 'test case name')
    .option('--check <text>', 'what the test checks')
    .option('--passed', 'record that the check passed')
    .option('--failed', 'record that the check failed')
    .addOption(versionOpt('the version checked (default: current; write --version=N)'))
    .addOption(noteOpt())
    .addOption(spaceOpt())
    .addOption(jsonOpt())
    .action(action(async (flags, name: string, test: string) => (await run()).runTest(name, test, flags)));

  skills
    .command('outcome')
    .description('report how using a skill went: completed, completed_with_deviation, failed, abandoned')
    .argument('<name>', 'skill name')
    .argument('<outcome>', 'completed | completed_with_deviation | failed | abandoned')
    .addOption(versionOpt('the version used (default: current; write --version=N)'))
    .addOption(noteOpt())
    .addOption(spaceOpt())
    .addOption(jsonOpt())
    .action(
      action(async (flags, name: string, outcome: string) => (await run()).runOutcome(name, outcome, flags)),
    );

  fieldOpts(
    skills
      .command('propose')
      .description('propose a new skill (created as a draft) or an improvement (kept for someone to accept)')
      .argument('[file]', 'SKILL.md to read (- for standard input)'),
  )
    .addOption(noteOpt())
    .addOption(spaceOpt())
    .addOption(jsonOpt())
    .action(action(async (flags, file?: string) => (await run()).runPropose(file, flags)));

  skills
    .command('proposals')
    .description("a skill's pending proposals with their text (--all: decided ones too)")
    .argument('<name>', 'skill name')
    .option('--all', 'include accepted and rejected proposals')
    .addOption(spaceOpt())
    .addOption(jsonOpt())
    .action(action(async (flags, name: string) => (await run()).runProposals(name, flags)));

  skills
    .command('accept')
    .description('apply a pending proposal as the next version')
    .argument('<name>', 'skill name')
    .requiredOption('--proposal <id>', 'proposal id (or its first characters)')
    .option('--force', 'accept even though the skill changed since the proposal was written')
    .addOption(spaceOpt())
    .addOption(jsonOpt())
    .action(action(async (flags, name: string) => (await run()).runAccept(name, flags)));

  skills
    .command('reject')
    .description('reject a pending proposal')
    .argument('<name>', 'skill name')
    .requiredOption('--proposal <id>', 'proposal id (or its first characters)')
    .addOption(spaceOpt())
    .addOption(jsonOpt())
    .action(action(async (flags, name: string) => (await run()).runReject(name, flags)));

  skills
    .command('install')
    .description('write a skill to <workspace>/.agents/skills/<name>/SKILL.md')
    .argument('<name>', 'skill name')
    .option('--workspace <dir>', 'workspace folder (default: the current directory)')
    .option('--exclude-from-git', "list it in the repository's .git/info/exclude so it is never committed")
    .addOption(versionOpt('install this version (default: current; write --version=N)'))
    .option('--force', 'overwrite a SKILL.md with local changes')
    .addOption(spaceOpt())
    .addOption(jsonOpt())
    .action(action(async (flags, name: string) => (await run()).runInstall(name, flags)));

  skills
    .command('sync')
    .description(
      "bring the workspace's installed skills (.agents/skills) to the store's current versions; local edits are kept",
    )
    .option('--workspace <dir>', 'workspace folder (default: the current directory)')
    .option('--quiet', 'print nothing (the session-start hook runs it in the background)')
    .addOption(spaceOpt())
    .addOption(jsonOpt())
    .action(action(async (flags) => (await run()).runSync(flags)));

  skills
    .command('import')
    .description('import <dir>/*/SKILL.md (or one skill folder); all or nothing')
    .argument('<dir>', 'folder of skill folders, or one skill folder')
    .option('--stage <stage>', 'stage of new skills: draft, active (default) or archived')
    .addOption(spaceOpt())
    .addOption(jsonOpt())
    .action(action(async (flags, dir: string) => (await run()).runImport(dir, flags)));

  skills
    .command('export')
    .description('write <dir>/<name>/SKILL.md for every skill, byte for byte')
    .argument('<dir>', 'folder to write into')
    .option('--stage <stage>', 'only this stage')
    .addOption(spaceOpt())
    .addOption(jsonOpt())
    .action(action(async (flags, dir: string) => (await run()).runExport(dir, flags)));
}
