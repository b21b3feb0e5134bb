/**
 * Codex sends context to the model as `user` (and `developer`) messages before the real prompt:
 * AGENTS.md, the environment, permissions, `!` shell commands the user ran, interrupt notes. None
 * of it is the user's request.
 */

/** Openings of user-role texts that Codex writes itself. */
const INJECTED_OPENINGS = [
  '# AGENTS.md instructions for',
  '<INSTRUCTIONS>',
  '<user_instructions>',
  '<environment_context>',
  '<permissions instructions>',
  '<collaboration_mode>',
  '<skill>',
  // `!cmd` in the TUI: the user ran a command themselves; it is not a request to the agent.
  '<user_shell_command>',
  '<turn_aborted>',
];

/** True when a user-role text was injected by Codex rather than typed. */
export function isInjectedUserText(text: string): boolean {
  const t = text.trimStart();
  return INJECTED_OPENINGS.some((o) => t.startsWith(o));
}

/** The `<cwd>` inside an `<environment_context>` block (a project fallback for old rollouts). */
export function cwdFromEnvironmentContext(text: string): string | undefined {
  if (!text.trimStart().startsWith('<environment_context>')) return undefined;
  return /<cwd>([^<]+)<\/cwd>/.exec(text)?.[1]?.trim() || undefined;
}
