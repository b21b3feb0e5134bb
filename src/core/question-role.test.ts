import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addresses, opensWith, roleCue, spokenBy, vocativeBlanker } from './question-role.js';

test('who the question asks about: I → user, you → assistant, the earlier cue wins', () => {
  assert.deepEqual(roleCue('what did I ask about the webhook retries?').role, 'user');
  assert.equal(roleCue('what did I ask about the webhook retries?').cueText, 'did I ask');
  // A verb that says what was done is still searched: "did I fix" asks about a fix.
  assert.equal(roleCue('what did I fix in the webhook retries?').cueText, 'did I');
  assert.equal(roleCue('What did you suggest for the flaky test?').role, 'assistant');
  assert.equal(roleCue('your recommendation on caching').role, 'assistant');
  assert.equal(roleCue('what did I ask you to change').role, 'user');
  const weak = roleCue('where is my config file');
  assert.deepEqual([weak.role, weak.strength], ['user', 0.5]);
  assert.equal(roleCue('why did we drop the redis cache').role, undefined);
});

test('names: capitalised words that are not sentence starts, months or question words', () => {
  assert.deepEqual(roleCue('What did Jonas say about the loan import alerting?').names, ['Jonas']);
  assert.deepEqual(roleCue("What is the name of Mei's parrot?").names, ['Mei']);
  assert.deepEqual(roleCue('What did we decide in May about Redis?').names, ['Redis']);
  assert.deepEqual(roleCue('Why did the build fail?').names, []);
});

test('a step spoken by a name, and a step speaking to one', () => {
  assert.ok(spokenBy('Maria: the deploy is green', ['Maria']));
  assert.ok(spokenBy('[Maria] the deploy is green', ['Maria']));
  assert.ok(!spokenBy('I told Maria the deploy is green', ['Maria']));
  assert.ok(addresses('Hi Mei! How was the trip?', ['Mei']));
  assert.ok(addresses('That is wonderful, Mei!', ['Mei']));
  assert.ok(!addresses('Mei went to Sydney', ['Nils']));
  // A name opening the text is a greeting only with the punctuation of one.
  assert.ok(addresses('Ines, finally. What happened?', ['Ines']));
  assert.ok(addresses('Marco! Sorry I went quiet.', ['Marco']));
  assert.ok(!addresses('Marcus says the user export is missing reports', ['Marcus']));
  assert.ok(!addresses('Mei went to Sydney', ['Mei']));
  // A greeting to the assistant, then a report about someone: not spoken to.
  assert.ok(!addresses('hey, Fatima says the user export is missing users', ['Fatima']));
  assert.ok(addresses('Hey Fatima how was the weekend', ['Fatima']));
  // A name answering a question ("who is on call?" "Tomasz.") is not spoken to.
  assert.ok(!addresses('Tomasz. Rotation flips Monday morning.', ['Tomasz']));
  // Reported speech is not the person's own turn; a speaker label is.
  assert.ok(!spokenBy('Oscar says legal must approve it', ['Oscar']));
  assert.ok(spokenBy('Oscar said: legal must approve it', ['Oscar']));
  // A turn about a person: the fallback for people nobody speaks to.
  assert.ok(opensWith('Lucia has started swimming lessons', ['Lucia']));
  assert.ok(!opensWith('We took Lucia swimming', ['Lucia']));
});

test('a name spoken to is blanked for scoring; a name spoken about or speaking is kept', () => {
  const blank = vocativeBlanker(['Nils', 'Mei']);
  assert.equal(
    blank('Hey Nils! I have been struggling with sleep'),
    'Hey ! I have been struggling with sleep',
  );
  assert.equal(blank('That is wonderful, Mei! Well done'), 'That is wonderful, ! Well done');
  // A name opening the text with a greeting's punctuation is spoken to, like "Hey Nils!".
  assert.equal(blank('Nils! Half a metre of snow in the garden.'), '! Half a metre of snow in the garden.');
  assert.equal(blank('Great, a sad tree book. Goodnight Mei.'), 'Great, a sad tree book. Goodnight .');
  assert.equal(blank('Nils went to Lisbon'), 'Nils went to Lisbon');
  assert.equal(blank('hey, Nils says the export is broken'), 'hey, Nils says the export is broken');
  assert.equal(blank('Mei: the deploy is green'), 'Mei: the deploy is green');
  assert.equal(vocativeBlanker([])('Hey Nils!'), 'Hey Nils!');
});

test('a named speaker\'s "say" verb is part of the cue, not a searched word', () => {
  assert.equal(roleCue('What did Nils suggest to Mei for sleep?').cueText, 'suggest');
  assert.equal(roleCue('Which novel did Hamid tell Henrik to read?').cueText, 'tell');
  // A verb that names what was done stays a word; so does a capitalised word that is no name.
  assert.equal(roleCue('What book did Nils recommend to Mei?').cueText, undefined);
  assert.equal(roleCue('What did I ask Nils to share?').cueText, 'did I ask');
});
