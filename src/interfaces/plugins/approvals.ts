/**
 * How the installed skills and rules tell each host to ask the user before Tapedeck saves,
 * installs or hands off anything: with the host's own choice UI where it has one, else a short
 * numbered list and a wait. Nothing is saved or installed silently.
 *
 * - Antigravity: the native `ask_question` tool (`is_multi_select: true`), and for larger changes
 *   a plan artifact in the conversation's `<appDataDir>/brain/<conversation-id>/` with
 *   `RequestFeedback: true` and `UserFacing: true`, so one "Proceed" click approves it.
 * - Claude Code: the `AskUserQuestion` tool (`questions[{question, header ≤ 12 chars, options: 2–4
 *   {label, description}, multiSelect}]`; a "(Recommended)" label suffix marks the advice).
 * - Codex CLI: `request_user_input` (Plan Mode, or outside it with `[features]
 *   default_mode_request_user_input = true`), else a numbered list.
 * - Gemini CLI: no choice tool to rely on: a numbered list, then wait.
 */
import type { AgentId } from '../../core/types.js';
import type { SkillDoc } from './content.js';

/** What is proposed, and the command that carries it out once approved. */
const PROPOSALS = `What needs approval, and what to run once it is given:
- skills to install: find them with \`tapedeck skills suggest --json\` (each with its badge and reasons); install each chosen one with \`tapedeck skills install <name>\`, adding \`--exclude-from-git\` when the user picks "local" (listed in .git/info/exclude) over "committed"; or only load it for this turn with \`tapedeck skills load <name>\` (writes nothing).
- memories distilled from this session: save the chosen ones with \`remember\` (or \`tapedeck memory add\`).
- a skill drafted from this session: propose it with \`skills\` \`action: propose\` (or \`tapedeck skills propose\`).
- a handoff: build it with \`tapedeck thread handoff <thread>\` (or \`threads\` \`action: handoff\`).`;

const RECOMMENDED = 'recommended options first, each labelled "(Recommended)"';

const HOW: Record<AgentId, string> = {
  antigravity: `1. Offer the choices with your native \`ask_question\` tool, \`is_multi_select: true\`, ${RECOMMENDED}.
2. For a larger change, first write a plan artifact in this conversation's folder \`<appDataDir>/brain/<conversation-id>/\` with \`RequestFeedback: true\` and \`UserFacing: true\`, so one "Proceed" click approves it:
   - \`skills_installation_plan.md\`: a table | skill | trust badge | description | why it fits | target path (\`.agents/skills/<name>/SKILL.md\`) | git strategy (local \`.git/info/exclude\` or committed) |
   - \`distilled_memories_draft.md\`: each memory with its type, text and the step it came from
   - \`skill_draft.md\`: the whole SKILL.md to propose
   - \`handoff_draft.md\`: the handoff as it will be saved
3. Do exactly what was approved, nothing more.`,
  'claude-code': `1. Ask with your \`AskUserQuestion\` tool: one question per decision, \`multiSelect: true\` when several can be picked, 2–4 options (\`label\`, \`description\`), ${RECOMMENDED}, a \`header\` of at most 12 characters. More than 4 candidates: the best 4, or a short numbered list.
2. For a larger change (a skill draft, a handoff, several memories), show the draft in your answer first, then ask Proceed / Change / Skip with \`AskUserQuestion\`.
3. Do exactly what was approved, nothing more.`,
  codex: `1. Ask with \`request_user_input\` where it is available (Plan Mode, or with \`default_mode_request_user_input = true\` under \`[features]\` in config.toml): options with \`label\` and \`description\`, ${RECOMMENDED}.
2. Where it is not available: a short numbered list (recommended first, marked), and wait for the user's answer before doing anything.
3. Do exactly what was approved, nothing more.`,
  'gemini-cli': `1. Show a short numbered list of the options, ${RECOMMENDED}, and wait for the user's answer (numbers or names) before doing anything.
2. For a larger change, show the draft first and ask to proceed, change or skip.
3. Do exactly what was approved, nothing more.`,
};

/** The approval flow of one host: how to ask, what needs asking and what runs afterwards. */
export function approvalFlow(host: AgentId): string {
  return `Nothing is saved, installed or handed off silently: the user approves it first.\n\n${HOW[host]}\n\n${PROPOSALS}`;
}

/** The `tapedeck-approvals` skill as written for one host. */
export function approvalsSkill(host: AgentId): SkillDoc {
  return {
    name: 'tapedeck-approvals',
    description:
      "Use when about to install skills, save memories distilled from a session, propose a new skill or save a handoff: ask the user in this host's own choice UI first and do only what they approve.",
    body: approvalFlow(host),
  };
}
