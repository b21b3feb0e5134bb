/**
 * How installed files call Hippo. Hooks and MCP entries point at this installation by absolute
 * paths — the Node binary running now (`process.execPath`) and this package's bin/hippo.js — not
 * at a `hippo` on PATH: hosts started from a desktop launcher often have a PATH without npm's or
 * nvm's bin folder, and an absolute path cannot pick up another Hippo. Re-run `hippo install` after
 * moving Hippo or switching Node versions; `hippo status` reports a command whose files are gone.
 */
import { shellCommand } from '../../core/shell-quote.js';

export interface Invocation {
  node: string;
  bin: string;
  /** HIPPO_HOME to pass on when it is not the default (~/.hippo). */
  hippoHome?: string;
  platform: string;
}

/** The shell command a host runs for `hippo hook <agent> <event>`. */
export function hookCommand(inv: Invocation, agent: string, event: string): string {
  const args = [inv.node, inv.bin, 'hook', agent, event];
  if (inv.hippoHome) args.push('--home', inv.hippoHome);
  return shellCommand(args, inv.platform);
}

/** An MCP stdio server entry (no shell involved: command and args are passed as they are). */
export function mcpEntry(inv: Invocation): { command: string; args: string[]; env: Record<string, string> } {
  return {
    command: inv.node,
    args: [inv.bin, 'mcp'],
    env: inv.hippoHome ? { HIPPO_HOME: inv.hippoHome } : {},
  };
}

/** True for a hook command Hippo wrote (any installation, any version of the quoting). */
export function isHippoHookCommand(command: unknown): boolean {
  return (
    typeof command === 'string' &&
    /(?:^|[\s'"/\\])hippo(?:\.js)?['"]?\s+['"]?hook['"]?\s+['"]?(?:antigravity|claude-code|codex|gemini-cli)\b/.test(
      command,
    )
  );
}
