/**
 * One example per command, shown at the end of its `--help`. Kept as data in one place so every
 * command has one (a test walks the program and fails on a command without an example).
 */
import type { Command } from 'commander';
import { commandPath } from './define.js';

export const EXAMPLES: Readonly<Record<string, string>> = {
  quickstart: 'tapedeck quickstart --query "why did we drop the redis cache?"',
  index: 'tapedeck index --agent claude-code --json',
  search: 'tapedeck search "why did we drop redis" --since 2w --agent claude-code --limit 5',
  show: 'tapedeck show claude-code:0a0a0a0a-1111-4222-8333-444444444444 --step 12 --window 2',
  threads: 'tapedeck threads --agent codex --since 7d --json | jq -r ".threads[].id"',
  eval: 'tapedeck eval questions.jsonl --compare --json | jq .overall',
  migrate: 'tapedeck migrate --to postgres://tapedeck@db.internal:5432/tapedeck',
  stats: 'tapedeck stats --json | jq .per_agent',
  doctor: 'tapedeck doctor --issues 10',
  mcp: 'claude mcp add tapedeck -- tapedeck mcp',
  ui: 'tapedeck ui --no-open   # prints http://127.0.0.1:7420/#token=…',
  completion: 'tapedeck completion bash > ~/.local/share/bash-completion/completions/tapedeck',
  memory: 'tapedeck memory add --type decision "We use pnpm, not npm, in this repo"',
  'memory add': 'tapedeck memory add --type decision --label tooling "We use pnpm, not npm, in this repo"',
  'memory show': 'tapedeck memory show 6b9903c8',
  'memory update': 'tapedeck memory update 6b9903c8 --importance 0.9 --add-label release',
  'memory list': 'tapedeck memory list --type decision --since 30d',
  'memory search': 'tapedeck memory search "package manager" --limit 3 --json',
  'memory supersede': 'tapedeck memory supersede 6b9903c8 "We moved from pnpm to bun in May"',
  'memory forget': 'tapedeck memory forget 6b9903c8',
  'memory restore': 'tapedeck memory restore 6b9903c8',
  'memory purge': 'tapedeck memory purge 6b9903c8 --yes',
  rules: 'tapedeck rules add --scope project:. "Run npm test before every commit"',
  'rules add': 'tapedeck rules add --scope project:. --priority 10 "Run npm test before every commit"',
  'rules list': 'tapedeck rules list --scope global',
  'rules update': 'tapedeck rules update 3f2c1a9b --disable',
  'rules remove': 'tapedeck rules remove 3f2c1a9b --yes',
  'rules resolve': 'tapedeck rules resolve --agent claude-code --project .',
  skills: 'tapedeck skills find "deploy the app to staging"',
  'skills add': 'tapedeck skills add ./deploy-app/SKILL.md',
  'skills list': 'tapedeck skills list --stage active',
  'skills find': 'tapedeck skills find "deploy the app to staging" --limit 3',
  'skills show': 'tapedeck skills show deploy-app --raw',
  'skills update': 'tapedeck skills update deploy-app ./deploy-app/SKILL.md --note "uses make deploy"',
  'skills stage': 'tapedeck skills stage deploy-app active',
  'skills evidence': 'tapedeck skills evidence deploy-app tapedeck://thread/claude-code:0a0a0a0a#12',
  'skills test': 'tapedeck skills test deploy-app smoke --check "the health page answers 200" --passed',
  'skills outcome': 'tapedeck skills outcome deploy-app completed --note "staging is green"',
  'skills propose': 'tapedeck skills propose ./rollback/SKILL.md',
  'skills proposals': 'tapedeck skills proposals deploy-app --all',
  'skills accept': 'tapedeck skills accept deploy-app',
  'skills reject': 'tapedeck skills reject deploy-app',
  'skills install': 'tapedeck skills install deploy-app --workspace . --exclude-from-git',
  'skills import': 'tapedeck skills import ./team-skills',
  'skills export': 'tapedeck skills export ./team-skills --stage active',
  wiki: 'tapedeck wiki write notes/release.md --file RELEASE-NOTES.md',
  'wiki write': 'printf "# Release\\n\\nTag, then push.\\n" | tapedeck wiki write notes/release.md',
  'wiki show': 'tapedeck wiki show notes/release.md --history',
  'wiki list': 'tapedeck wiki list notes',
  'wiki search': 'tapedeck wiki search "release tag" --folder notes',
  'wiki rm': 'tapedeck wiki rm notes/release.md',
  thread: 'tapedeck thread import --file chat.json',
  'thread import': 'tapedeck thread import --file chat.json --json',
  'thread append': 'tapedeck thread append nowledge-7 --file more.json --expected-count 2',
  'thread reconcile': 'tapedeck thread reconcile nowledge-7 --matched 1 --file tail.json',
  'thread handoff': 'tapedeck thread handoff claude-code:0a0a0a0a-1111-4222-8333-444444444444',
  'thread show': 'tapedeck thread show nowledge-7 --limit 20',
  'thread list': 'tapedeck thread list --limit 5',
  wm: 'tapedeck wm',
  'wm read': 'tapedeck wm read --cached',
  'wm refresh': 'tapedeck wm refresh --reset focus',
  'wm edit': 'tapedeck wm edit --section focus --text "- ship the billing fix"',
  context: 'tapedeck context --agent claude-code --project . --budget 1500',
  fs: 'tapedeck fs ls /memories',
  'fs ls': 'tapedeck fs ls /threads -l',
  'fs cat': 'tapedeck fs cat /wiki/notes/release.md --lines 1-20 -n',
  'fs stat': 'tapedeck fs stat /skills/deploy-app/SKILL.md',
  'fs find': 'tapedeck fs find /wiki --name "*.md"',
  'fs grep': 'tapedeck fs grep -i "redis" /memories',
  'fs recall': 'tapedeck fs recall "why did we drop redis" /',
  'fs write': 'tapedeck fs write /wiki/notes/todo.md --content "- tag the release"',
  'fs rm': 'tapedeck fs rm /wiki/notes/todo.md --yes',
  export: 'tapedeck export ./tapedeck-backup',
  import: 'tapedeck import ./tapedeck-backup --dry-run',
  serve: 'tapedeck serve --port 7420',
  keys: 'tapedeck keys create --name ci --scope read',
  'keys create': 'tapedeck keys create --name ci --scope read --expires 90d',
  'keys list': 'tapedeck keys list --json',
  'keys revoke': 'tapedeck keys revoke 7c1e2d3f',
  install: 'tapedeck install claude-code --workspace --dry-run',
  uninstall: 'tapedeck uninstall claude-code --workspace',
  hook: 'echo \'{"session_id":"abc"}\' | tapedeck hook claude-code SessionStart',
  queue: 'tapedeck queue list',
  'queue flush': 'tapedeck queue flush --retry-failed',
  'queue list': 'tapedeck queue list --json',
  status: 'tapedeck status --agent claude-code',
};

/** Give every command of `program` its example (added last, after every command is declared). */
export function addHelpExamples(program: Command): void {
  const walk = (cmd: Command) => {
    for (const sub of cmd.commands) {
      const example = EXAMPLES[commandPath(sub)];
      if (example) sub.addHelpText('after', `\nExample:\n  $ ${example}`);
      walk(sub);
    }
  };
  walk(program);
}
