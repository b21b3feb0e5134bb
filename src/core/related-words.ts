/**
 * A small hand-written table of related words for software work and everyday life: what a
 * question may say ("rate limit", "trip", "got rid of") where the answer says something else
 * ("requests per minute", "flew to", "ripped out"). Written from general knowledge of the two
 * domains — never built from the eval sets' answers, which would be tuning to our own data.
 *
 * Each line is `question words: related words`. A question word (matched by Porter stem, so
 * "travelled" finds the "travel" line) brings in its line's related words as low-weight extras
 * (search/expansion.ts); a related word never replaces the question's own word.
 */
import { porterStem } from './porter.js';

const TABLE = `
cache caching cached: redis memcached varnish cdn ttl invalidation
remove removed removal rid drop dropped delete deleted: removed dropped deleted ripped stripped disabled
rate throttle throttled throttling: quota requests calls minute bucket 429
limit limits: quota maximum cap ceiling
timeout timeouts timing hang hung: deadline killed seconds stuck
slow slowness speed fast faster latency performance: latency ms milliseconds seconds faster index
schedule scheduled schedules: cron nightly hourly daily weekly night
extract extracted extracting split: split package module moved separate
payload payloads: body bodies request json
crash crashed crashes: exception panic segfault error
bug bugs broken broke: error fix regression wrong
test tests testing: spec assert regression jest pytest
deploy deployed deployment release: release rollout ship shipped production
config configuration setting settings: env environment flag option
login auth authentication: token session password oauth sso
database db: postgres mysql sqlite sql table schema migration
library dependency dependencies package: lib module npm import
timezone zone: utc local offset date
upgrade upgraded update bump: version bumped upgraded migrate
flaky intermittent: flake retry timer race
retry retries retried: backoff attempt attempts
memory oom leak: heap rss leak
permission permissions access: role forbidden denied
log logs logging: logger debug output
email mail: smtp inbox notification message
queue queued: worker job backlog
trip trips travel travelled traveled vacation holiday visit visited: flew visited holiday vacation trip abroad back
city cities country countries: visited flew trip back
job work career employer employed: offer hired position role starting company interview promoted
hobby hobbies: class lesson club signed started learning
race marathon: run marathon 10k 5k triathlon registered
training train: practice registered coach
book books novel novels read: read reading novel author chapter
recommend recommended suggest suggested: read try should must
achieve achieved accomplish accomplished: finished completed won first managed
climbing climb: gym route boulder bouldering belay
baking bake: loaf bread oven dough cake
running run: run jog race mile kilometre
cycling bike: ride cycled bike
painting paint: canvas watercolour sketch
gardening garden: plants seeds grew tomatoes
pet pets: dog cat puppy kitten
family: mother father mum dad sister brother daughter son kids
cook cooking food eat: recipe cooked baked dinner restaurant ate
music concert: band song guitar piano gig
movie movies film films: watched cinema film
move moved moving house: apartment flat house moved
health sick doctor: hospital injury doctor
birthday party: celebrate celebrated party
wedding married marry: wedding engaged married
`;

const RELATED = new Map<string, string[]>();
for (const line of TABLE.trim().split('\n')) {
  const [keys = '', words = ''] = line.split(':');
  const related = words.trim().split(/\s+/).filter(Boolean);
  for (const k of keys.trim().split(/\s+/)) {
    const stem = porterStem(k);
    const list = RELATED.get(stem) ?? [];
    for (const w of related) if (!list.includes(w)) list.push(w);
    RELATED.set(stem, list);
  }
}

/** Words related to `word` (by its Porter stem) in the table, none of them `word` itself. */
export function relatedWords(word: string): readonly string[] {
  const stem = porterStem(word.toLowerCase());
  return (RELATED.get(stem) ?? []).filter((w) => porterStem(w) !== stem);
}

/**
 * Spelling variants of a word whose Porter stems differ (British and American forms): "organise"
 * and "organize", "colour" and "color", "centre" and "center".
 */
export function spellingVariants(word: string): string[] {
  const w = word.toLowerCase();
  const out: string[] = [];
  const swap = (re: RegExp, to: string) => {
    if (re.test(w)) out.push(w.replace(re, to));
  };
  // Long words only: "size" and "wise" have no other spelling.
  if (w.length >= 7) {
    swap(/is(e|es|ed|ing|ation|ations)$/, 'iz$1');
    swap(/iz(e|es|ed|ing|ation|ations)$/, 'is$1');
  }
  swap(/^(colo|behavio|favo|hono|labo|neighbo|flavo|humo|rumo|harbo|armo|vapo|endeavo)ur/, '$1r');
  swap(/^(colo|behavio|favo|hono|labo|neighbo|flavo|humo|rumo|harbo|armo|vapo|endeavo)r(?!u)/, '$1ur');
  swap(/^(cent|met|theat|lit|fib|calib|lust|spect)re(s|d)?$/, '$1er$2');
  swap(/^(cent|met|theat|lit|fib|calib|lust|spect)er(s|ed)?$/, '$1re$2');
  swap(/^(catal|dial|anal|monol|prol|epil)ogue(s)?$/, '$1og$2');
  const stem = porterStem(w);
  return out.filter((v) => v.length > 3 && porterStem(v) !== stem);
}
