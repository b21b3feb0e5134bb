/**
 * The approval flows in what `tapedeck install` writes for each host (a real install into a temp
 * HOME, through the CLI): each host's skills and rules name its own choice tool and files, and
 * every `tapedeck …` command they tell the agent to run exists, with the flags they use.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { tapedeck } from './support/cli.js';

const root = mkdtempSync(join(tmpdir(), 'tapedeck approvals-'));
const env = { HOME: join(root, 'home'), TAPEDECK_HOME: join(root, 'td'), PATH: process.env.PATH ?? '' };
const read = (...p: string[]) => readFileSync(join(env.HOME, ...p), 'utf8');

function install(agent: string): void {
  const r = tapedeck(['install', agent], env);
  assert.equal(r.status, 0, `install ${agent}: ${r.stderr}`);
}

/** What each host's installed texts say about approvals (the files the agent reads). */
const TEXTS: Record<string, () => string> = {
  antigravity: () =>
    read('.gemini/config/plugins/tapedeck/rules/tapedeck.md') +
    read('.gemini/config/plugins/tapedeck/skills/tapedeck-approvals/SKILL.md'),
  'claude-code': () => read('.claude/skills/tapedeck-approvals/SKILL.md'),
  codex: () => read('.codex/AGENTS.md'),
  'gemini-cli': () => read('.gemini/GEMINI.md'),
};

const MUST: Record<string, string[]> = {
  antigravity: [
    '`ask_question`',
    '`is_multi_select: true`',
    '(Recommended)',
    '`<appDataDir>/brain/<conversation-id>/`',
    '`RequestFeedback: true`',
    '`UserFacing: true`',
    '`skills_installation_plan.md`',
    '| skill | trust badge | description | why it fits | target path',
    'git strategy (local `.git/info/exclude` or committed)',
    '`distilled_memories_draft.md`',
    '`skill_draft.md`',
    '`handoff_draft.md`',
  ],
  'claude-code': [
    '`AskUserQuestion`',
    '`multiSelect: true`',
    '(Recommended)',
    '`header` of at most 12 characters',
  ],
  codex: ['`request_user_input`', '`default_mode_request_user_input = true`', 'short numbered list'],
  'gemini-cli': ['short numbered list', "wait for the user's answer"],
};
const OTHER_HOSTS_TOOLS = ['ask_question', 'AskUserQuestion', 'request_user_input'];

/** `tapedeck skills install <name> --exclude-from-git` → the command words and the flags. */
function commandsIn(text: string): { words: string[]; flags: string[]; raw: string }[] {
  return [...text.matchAll(/`(tapedeck [^`]+)`/g)].map((m) => {
    const parts = m[1].split(/\s+/).slice(1);
    const stop = parts.findIndex((p) => /^[-<"'[]/.test(p));
    return {
      raw: m[1],
      words: stop === -1 ? parts : parts.slice(0, stop),
      flags: parts.filter((p) => p.startsWith('--')).map((p) => p.split('=')[0]),
    };
  });
}

describe('approvals in the host UI', () => {
  after(() => rmSync(root, { recursive: true, force: true }));
  for (const agent of Object.keys(TEXTS))
    it(`${agent}: its own choice UI and files, and only commands that exist`, () => {
      install(agent);
      const text = TEXTS[agent]();
      assert.match(text, /Nothing is saved, installed or handed off silently/);
      for (const needle of MUST[agent]) assert.ok(text.includes(needle), `${agent} names ${needle}`);
      const own = MUST[agent][0].replace(/`/g, '');
      for (const tool of OTHER_HOSTS_TOOLS)
        if (tool !== own) assert.ok(!text.includes(`\`${tool}\``), `${agent} does not name ${tool}`);

      const commands = commandsIn(text);
      assert.ok(commands.length >= 5, `${agent}: ${commands.map((c) => c.raw).join('; ')}`);
      for (const c of commands) {
        const help = tapedeck([...c.words, '--help'], env);
        assert.equal(help.status, 0, `\`${c.raw}\`: tapedeck ${c.words.join(' ')} --help: ${help.stderr}`);
        assert.match(help.stdout, new RegExp(`^Usage: tapedeck ${c.words.join(' ')}\\b`), c.raw);
        for (const flag of c.flags) assert.ok(help.stdout.includes(flag), `\`${c.raw}\`: ${flag} exists`);
      }
    });
});
