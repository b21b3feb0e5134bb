/**
 * Tapedeck's entries in a host's `hooks` object of the Claude Code shape, shared by Claude Code,
 * Codex and Gemini CLI: `{"hooks": {"Event": [{"matcher"?, "hooks": [{"type": "command",
 * "command", "timeout"}]}]}}`. Tapedeck owns the groups whose handlers run `tapedeck … hook …`: install
 * replaces them in place (or appends), uninstall removes them and whatever they leave empty; every
 * other group, handler and key stays as it was.
 */
import { isTapedeckHookCommand } from './command.js';
import { isObject, type Json } from './json-file.js';

export interface HookSpec {
  event: string;
  matcher?: string;
  handler: Json;
}

const ours = (h: unknown) => isObject(h) && isTapedeckHookCommand(h.command);

/** Remove Tapedeck's handlers from one event's groups; returns the index of the first group that had one. */
function strip(groups: unknown[]): { rest: unknown[]; at: number } {
  const rest: unknown[] = [];
  let at = -1;
  for (const g of groups) {
    if (!isObject(g) || !Array.isArray(g.hooks) || !g.hooks.some(ours)) {
      rest.push(g);
      continue;
    }
    if (at === -1) at = rest.length;
    const kept = g.hooks.filter((h) => !ours(h));
    if (kept.length > 0) rest.push({ ...g, hooks: kept });
  }
  return { rest, at };
}

export function putEventHooks(settings: Json, specs: HookSpec[]): void {
  if (!isObject(settings.hooks)) settings.hooks = {};
  const hooks = settings.hooks as Json;
  for (const spec of specs) {
    const groups = Array.isArray(hooks[spec.event]) ? (hooks[spec.event] as unknown[]) : [];
    const { rest, at } = strip(groups);
    const group: Json =
      spec.matcher === undefined
        ? { hooks: [spec.handler] }
        : { matcher: spec.matcher, hooks: [spec.handler] };
    rest.splice(at === -1 ? rest.length : at, 0, group);
    hooks[spec.event] = rest;
  }
}

export function removeEventHooks(settings: Json): void {
  if (!isObject(settings.hooks)) return;
  const hooks = settings.hooks as Json;
  let changed = false;
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    const { rest, at } = strip(groups);
    if (at === -1) continue;
    changed = true;
    if (rest.length > 0) hooks[event] = rest;
    else delete hooks[event];
  }
  if (changed && Object.keys(hooks).length === 0) delete settings.hooks;
}

/** Does the object hold a Tapedeck hook handler anywhere (for status)? */
export function hookCommandsIn(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) hookCommandsIn(v, out);
  else if (isObject(value)) {
    if (ours(value)) out.push(String(value.command));
    for (const v of Object.values(value)) hookCommandsIn(v, out);
  }
  return out;
}
