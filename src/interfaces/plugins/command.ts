/**
 * How installed files call Tapedeck. Hooks and MCP entries point at this installation by absolute
 * paths — the Node binary running now (`process.execPath`) and this package's bin/tapedeck.js — not
 * at a `tapedeck` on PATH: hosts started from a desktop launcher often have a PATH without npm's or
 * nvm's bin folder, and an absolute path cannot pick up another Tapedeck. Re-run `tapedeck install` after
 * moving Tapedeck or switching Node versions; `tapedeck status` reports a command whose files are gone.
 */
import { shellCommand } from '../../core/shell-quote.js';
import { AGENT_IDS } from '../../core/types.js';

export interface Invocation {
  node: string;
  bin: string;
  /** TAPEDECK_HOME to pass on when it is not the default (~/.tapedeck). */
  tapedeckHome?: string;
  platform: string;
}

/** The shell command a host runs for `tapedeck hook <agent> <event>`. */
export function hookCommand(inv: Invocation, agent: string, event: string): string {
  const args = [inv.node, inv.bin, 'hook', agent, event];
  if (inv.tapedeckHome) args.push('--home', inv.tapedeckHome);
  return shellCommand(args, inv.platform);
}

/** An MCP stdio server entry (no shell involved: command and args are passed as they are). */
export function mcpEntry(inv: Invocation): { command: string; args: string[]; env: Record<string, string> } {
  return {
    command: inv.node,
    args: [inv.bin, 'mcp'],
    env: inv.tapedeckHome ? { TAPEDECK_HOME: inv.tapedeckHome } : {},
  };
}

const HOOK_COMMAND = new RegExp(
  `(?:^|[\\s'"/\\\\])tapedeck(?:\\.js)?['"]?\\s+['"]?hook['"]?\\s+['"]?(?:${AGENT_IDS.join('|')})\\b`,
);

/** True for a hook command Tapedeck wrote (any installation, any version of the quoting). */
export function isTapedeckHookCommand(command: unknown): boolean {
  return typeof command === 'string' && HOOK_COMMAND.test(command);
}
