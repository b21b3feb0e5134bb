/**
 * The words a user actually typed, out of an Antigravity USER_INPUT `content`.
 *
 * Antigravity wraps the request in `<USER_REQUEST>…</USER_REQUEST>` and appends blocks the user
 * never typed: `<ADDITIONAL_METADATA>` (local time, open files, cursor) and
 * `<USER_SETTINGS_CHANGE>` (model switches). The compacted transcript can cut a block before its
 * closing tag, so an unclosed block runs to the end of the text.
 */

const REQUEST = /<USER_REQUEST>([\s\S]*?)(?:<\/USER_REQUEST>|$)/g;
const INJECTED = /<(ADDITIONAL_METADATA|USER_SETTINGS_CHANGE)>[\s\S]*?(?:<\/\1>|$)/g;

/** The user's own text: request wrapper removed, injected blocks dropped, trimmed ('' if none). */
export function userRequestText(content: string): string {
  const requests = [...content.matchAll(REQUEST)].map((m) => m[1] ?? '');
  const text = requests.length > 0 ? requests.join('\n\n') : content;
  return text.replace(INJECTED, '').trim();
}
