/**
 * Did the user ask the agent to remember or save something? Used to let Tapedeck's write tools run
 * without a confirmation prompt only when the request came from the user's own words.
 *
 * Deliberately narrow: an imperative about memory (remember, memorize, save/store/note this, don't
 * forget, keep in mind, add to memory, write it down, hand off, distill) in the latest user
 * message. Anything else asks first, which is the host's safe default.
 */

const INTENT = [
  /\bremember\b/i,
  /\bmemori[sz]e\b/i,
  /\b(?:save|store|record|note|log|keep|capture)\b[^.?!\n]{0,40}\b(?:this|that|it|these|those|them|memory|memories|tapedeck|thread|session|conversation|down|for later|in mind)\b/i,
  /\b(?:don'?t|do not|never) forget\b/i,
  /\bwrite (?:this|that|it) down\b/i,
  /\b(?:add|put)\b[^.?!\n]{0,30}\bto (?:tapedeck|(?:your |the )?memor(?:y|ies))\b/i,
  /\bhand(?:\s|-)?off\b/i,
  /\bdistill\b/i,
  /\b(?:save|remember) (?:a |the )?(?:skill|rule|preference|decision)\b/i,
  // a few other languages agents are used in
  /\b(?:merk dir|speichere?|recuerda|guarda|retiens|enregistre|ricorda|salva)\b/i,
  /(?:记住|保存|覚えて|保存して|기억해)/,
];

/** True when `text` asks to remember or save. */
export function asksToSave(text: string): boolean {
  return INTENT.some((re) => re.test(text));
}

/** The user's words in an Antigravity step: inside `<USER_REQUEST>`, without the added metadata. */
export function userRequestText(content: string): string {
  const m = /<USER_REQUEST>([\s\S]*?)(?:<\/USER_REQUEST>|$)/.exec(content);
  const text = m ? m[1] : content.replace(/<(ADDITIONAL_METADATA|USER_SETTINGS_CHANGE)>[\s\S]*?<\/\1>/g, '');
  return text.trim();
}
