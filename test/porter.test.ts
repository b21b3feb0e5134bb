/** Our Porter stemmer must agree with SQLite FTS5's, since it looks words up in FTS5's vocabulary. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { porterStem } from '../src/core/porter.js';

const WORDS =
  `caresses ponies ties caress cats feed agreed plastered bled motoring sing conflated troubled sized
hopping tanned falling hissing fizzed failing filing happy sky relational conditional rational valenci digitizer
conformabli radicalli differentli vileli analogousli vietnamization predication operator feudalism decisiveness
hopefulness callousness formaliti sensitiviti sensibiliti triplicate formative formalize electriciti electrical
hopeful goodness revival allowance inference airliner gyroscopic adjustable defensible irritant replacement
adjustment dependent adoption communism activate angulariti homologous effective bowdlerize probate rate cease
controll roll generalizations oscillators dropped dropping caching cached decided decision decisions invalidation
sessions jwts webhook webhooks timeouts flaky rounding migrations migrated pagination paginate clamped
connection connections configured configuration dependencies deprecated reconciles reviewer reviews
order_total_rounding err_socket_timeout src_db_ts`.split(/\s+/);

test('porterStem matches FTS5 porter on a word list', () => {
  const db = new Database(':memory:');
  db.exec(
    "CREATE VIRTUAL TABLE t USING fts5(x, tokenize = \"porter unicode61 remove_diacritics 2 tokenchars '_'\"); CREATE VIRTUAL TABLE v USING fts5vocab(t, 'row');",
  );
  const insert = db.prepare('INSERT INTO t(x) VALUES (?)');
  const mismatches: string[] = [];
  for (const w of WORDS) {
    db.exec('DELETE FROM t');
    insert.run(w);
    const stem = (db.prepare('SELECT term FROM v').get() as { term: string }).term;
    if (stem !== porterStem(w)) mismatches.push(`${w}: fts5 ${stem}, ours ${porterStem(w)}`);
  }
  assert.deepEqual(mismatches, []);
});
