/**
 * What `tapedeck install` writes besides configuration: the rules/instructions text every agent gets,
 * the skills (`tapedeck-<domain>-<action>`, each a SKILL.md whose front matter `name` is its folder
 * and whose `description` says when to use it) and Antigravity's plugin.json.
 */
import { VERSION } from '../../app/version.js';
import type { AgentId } from '../../core/types.js';
import { approvalFlow, approvalsSkill } from './approvals.js';

export interface SkillDoc {
  name: string;
  description: string;
  body: string;
}

const tools = (...names: string[]) => names.map((n) => `\`${n}\``).join(', ');

export const SKILLS: SkillDoc[] = [
  {
    name: 'tapedeck-memory-search',
    description:
      'Use when the user refers to earlier work ("what did we decide about…", "how did we fix…", "last time"), or before starting a task that may have been done before: search past agent sessions and saved memories first.',
    body: `1. Ask Tapedeck with the user's own words: ${tools('recall')} searches past sessions (every agent) and saved facts, decisions and preferences at once. Plain questions work; quote exact identifiers, paths and error codes.
2. Open the best hit one level deeper with ${tools('read')} on its link (a window around the step), and the whole session only when needed.
3. Cite what you use: the thread and step (\`tapedeck://thread/<id>#<step>\`) or the memory link.
4. Nothing found: say so, and carry on without inventing history.

CLI: \`tapedeck search "<question>"\`, \`tapedeck show <thread> --step N\`, \`tapedeck memory search "<question>"\`.`,
  },
  {
    name: 'tapedeck-memory-distill',
    description:
      'Use when the user says remember/save/note this, or at the end of a substantial task: distill what will matter later (decisions and why, preferences, facts about the project, procedures) into short atomic memories.',
    body: `1. Pick only what is durable: a decision with its reason, a preference, a fact (hosts, versions, conventions), a procedure that worked. Skip chatter and anything secret.
2. Check for an existing memory first with ${tools('recall')} (\`in: memories\`); if one is outdated, replace it with ${tools('remember')} \`action: supersede\` instead of adding a duplicate.
3. Save each as one memory with ${tools('remember')}: one to three sentences, the right type (fact, preference, decision, plan, procedure, learning), the thread link it came from, the project when it is project-specific.
4. Tell the user what you saved, in one line each.

CLI: \`tapedeck memory add --title "…" --type decision "…"\`.`,
  },
  {
    name: 'tapedeck-working-memory',
    description:
      "Use at the start of a work session, or when the user asks what they were working on, what is in flight or what is next: read today's working-memory briefing.",
    body: `1. Read the briefing with ${tools('context')} \`part: briefing\` (today). It lists focus, recent decisions, open threads and what changed.
2. For a full startup payload (rules, briefing, relevant memories, skills within a token budget) call ${tools('context')} with no part.
3. If it looks stale after a lot of new work, \`tapedeck wm refresh\` regenerates it.

CLI: \`tapedeck wm read\`, \`tapedeck context --project .\`.`,
  },
  {
    name: 'tapedeck-skill-load',
    description:
      'Use when a task looks like a known procedure (a release, a deploy, a migration, a recurring fix): find the matching Tapedeck skill and load it before improvising.',
    body: `1. Find candidates with ${tools('skills')} \`action: find\` using the task in plain words.
2. Load the best one with \`action: load\` and follow it; note its trust badge (Draft, Checked, Proven).
3. Afterwards report how it went with \`action: outcome\` so its evidence stays honest.

CLI: \`tapedeck skills find "<task>"\`, \`tapedeck skills show <name>\`.`,
  },
  {
    name: 'tapedeck-skill-manage',
    description:
      'Use when the user asks to list, activate, archive or edit Tapedeck skills, or to record whether a skill worked.',
    body: `1. List with ${tools('fs')} \`action: ls, path: /skills\`; look one up with ${tools('skills')} \`action: load\`.
2. Change a skill's stage only when the user asked: \`tapedeck skills stage <name> <stage>\` (or write its SKILL.md with ${tools('fs')}).
3. Record results with ${tools('skills')} \`action: outcome\`.

CLI: \`tapedeck skills list\`, \`tapedeck skills stage <name> <stage>\`.`,
  },
  {
    name: 'tapedeck-skill-propose',
    description:
      'Use after solving a multi-step task that will come up again (or when the user says "make this a skill"): propose it as a reusable Tapedeck skill with its evidence.',
    body: `1. Write the procedure as steps someone else could follow, with the commands and checks that mattered.
2. Propose it with ${tools('skills')} \`action: propose\`: a SKILL.md with a kebab-case name, a description that says when to use it, the body, and the evidence (this session's thread, related memories). It starts as a draft.
3. Tell the user the name and how to activate it.

CLI: \`tapedeck skills propose --help\`.`,
  },
  {
    name: 'tapedeck-thread-save',
    description:
      'Use when the user asks to save or checkpoint this conversation (or one from another app) into Tapedeck; sessions of installed agents are also saved automatically when they end.',
    body: `1. Sessions of Antigravity, Claude Code, Codex and Gemini CLI are captured by Tapedeck's hooks when they end or go idle; \`tapedeck status\` shows whether this one is saved.
2. To save a conversation explicitly (another app, or now), call ${tools('threads')} \`action: save\` with a stable thread id, a title and the messages; saving again appends only what is new.

CLI: \`tapedeck thread import --file chat.json\`, \`tapedeck status --session <id>\`.`,
  },
  {
    name: 'tapedeck-thread-handoff',
    description:
      'Use when the user ends a session, switches agent or machine, or asks for a handoff/summary to continue later: build a handoff (goal, decisions, files, risks, next steps) of this session.',
    body: `1. Call ${tools('threads')} \`action: handoff\` with this session's thread id (\`<agent>:<session id>\`); it is built from the session without an LLM and saved as its own thread.
2. Show the user the markdown and the handoff link; the next session can open it with ${tools('read')} or \`tapedeck thread show\`.

CLI: \`tapedeck thread handoff <thread>\`.`,
  },
  {
    name: 'tapedeck-fs-explore',
    description:
      "Use to browse Tapedeck's knowledge as files (memories, rules, skills, threads, wiki, working memory): list, read and grep paths instead of guessing tool arguments.",
    body: `1. Start with ${tools('fs')} on \`/\` to see the mounts, then list, read or grep below them.
2. Write only when the user asked, with ${tools('fs')} \`action: write\` or \`rm\` (it can supersede or remove: confirm first).

CLI: \`tapedeck fs ls /\`, \`tapedeck fs cat <path>\`, \`tapedeck fs grep <pattern> <path>\`.`,
  },
  {
    name: 'tapedeck-status',
    description:
      'Use when the user asks whether Tapedeck is working, connected or saving sessions, or when a Tapedeck tool or hook fails: check the index, the server, the capture queue and the last error.',
    body: `1. ${tools('recall')} with no query lists the most recent sessions indexed (and says when the index is still catching up).
2. Run \`tapedeck status\` (or \`tapedeck status --json\`) in a terminal: the configured server and whether it answers, sessions waiting in the queue, the last error, the last save per agent and whether this session is saved.
3. Sessions waiting because a server was down are sent by \`tapedeck queue flush\` once it is back; \`tapedeck doctor\` checks transcripts and the database.`,
  },
];

export const RULES_DESCRIPTION =
  "Tapedeck is the user's memory across agent sessions: search it before redoing past work, save to it what will matter later.";

export const RULES_BODY = `# Tapedeck: the user's memory

- Past sessions of every coding agent on this machine and the user's saved memories, rules and
  skills are in Tapedeck (MCP server \`tapedeck\`).
- Before redoing work the user may have done before, or when they mention earlier work, search:
  \`recall\` (sessions and memories); open hits with \`read\`.
- When the user asks to remember or save something, or a decision worth keeping was made, add a
  short memory with \`remember\` (check \`recall\` first to avoid duplicates).
- When a task matches a known procedure, look for a skill with \`skills\` (find, then load).
- Never store secrets in memories. Ask before removing anything (\`remember\` forget, \`fs\` rm).
- Sessions are saved automatically when they end; \`tapedeck status\` shows whether capture works.`;

/** Every skill installed for a host: the shared ones and its own approval flow. */
export const skillsFor = (host: AgentId): SkillDoc[] => [...SKILLS, approvalsSkill(host)];

/** The rules for a host: the shared ones and how it asks before saving or installing. */
export const rulesBody = (host: AgentId): string =>
  `${RULES_BODY}\n\n## Before saving or installing anything\n\n${approvalFlow(host)}`;

export function skillFile(s: SkillDoc, slash: boolean): string {
  const desc = slash ? `${s.description} Trigger: /${s.name}` : s.description;
  return `---\nname: ${s.name}\ndescription: ${JSON.stringify(desc)}\n---\n\n# ${s.name}\n\n${s.body}\n`;
}

export function rulesFile(host: AgentId): string {
  return `---\ndescription: ${JSON.stringify(RULES_DESCRIPTION)}\n---\n\n${rulesBody(host)}\n`;
}

export function pluginJson(): unknown {
  return {
    name: 'tapedeck',
    version: VERSION,
    description: 'Persistent memory for coding agents: past sessions, memories, rules and skills (Tapedeck).',
    author: 'Tapedeck',
    license: 'MIT',
    keywords: ['memory', 'context', 'mcp', 'search', 'tapedeck'],
  };
}
