import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inProjects, namedProjects, projectAt, projectName } from './projects.js';

const PROJECTS = [
  '/home/dev/customer-frontend',
  '/home/dev/tidewatch',
  '/home/dev/chats/kofi-and-lena',
  '/home/dev/ui',
  'C:\\Users\\dev\\ledgerly',
];

test('a project is named by its folder, as words, whatever the case and separators', () => {
  assert.equal(projectName('/home/dev/customer-frontend/'), 'customer-frontend');
  assert.equal(projectName('C:\\Users\\dev\\ledgerly'), 'ledgerly');
  const named = (q: string, names: string[] = []) => namedProjects(q, names, PROJECTS);
  assert.deepEqual(named('what did we fix in Tidewatch two weeks ago?'), ['/home/dev/tidewatch']);
  assert.deepEqual(named('is tidewatch/retry.py still used?'), ['/home/dev/tidewatch']);
  assert.deepEqual(named('why is the customer frontend build slow'), ['/home/dev/customer-frontend']);
  assert.deepEqual(named('customer_frontend deploy'), ['/home/dev/customer-frontend']);
  assert.deepEqual(named('how do we store money in ledgerly now?'), ['C:\\Users\\dev\\ledgerly']);
  // Part of a word, a part of a name, or a name too short to tell: nothing.
  assert.deepEqual(named('the tidewatcher service'), []);
  assert.deepEqual(named('which customer asked for the refund?'), []);
  assert.deepEqual(named('the ui freezes on save'), []);
  // A person the question names may be a part of the folder's name.
  assert.deepEqual(named('Where did Lena move to?', ['Lena']), ['/home/dev/chats/kofi-and-lena']);
  assert.deepEqual(named('Where did Lena move to?'), []);
  // A home or top folder is named after a user or the system, not a piece of work.
  assert.deepEqual(
    namedProjects('why is the dev server slow', [], ['/home/dev', '/tmp', 'C:\\Users\\dev']),
    [],
  );
});

test('the project a folder is in is the longest one at or above it, on whole folder names', () => {
  const all = [...PROJECTS, '/home/dev/chats'];
  assert.equal(projectAt('/home/dev/tidewatch', all), '/home/dev/tidewatch');
  assert.equal(projectAt('/home/dev/tidewatch/src/jobs/', all), '/home/dev/tidewatch');
  assert.equal(projectAt('/home/dev/chats/kofi-and-lena/notes', all), '/home/dev/chats/kofi-and-lena');
  assert.equal(projectAt('/home/dev/chats/other', all), '/home/dev/chats');
  assert.equal(projectAt('/home/dev/tidewatch-old', all), null);
  assert.equal(projectAt('/home/dev', all), null);
  assert.equal(projectAt('C:\\Users\\dev\\ledgerly\\src', all), 'C:\\Users\\dev\\ledgerly');
});

test('a step is in a preferred project when its project is it or below it', () => {
  assert.ok(inProjects('/home/dev/tidewatch', ['/home/dev/tidewatch']));
  assert.ok(inProjects('/home/dev/tidewatch/api', ['/home/dev/tidewatch/']));
  assert.ok(!inProjects('/home/dev/tidewatch-old', ['/home/dev/tidewatch']));
  assert.ok(!inProjects(null, ['/home/dev/tidewatch']));
  assert.ok(!inProjects('/home/dev/tidewatch', []));
});

test('Windows folders are folders too', () => {
  assert.ok(inProjects('C:\\Users\\dev\\ledgerly\\api', ['C:\\Users\\dev\\ledgerly']));
  assert.ok(!inProjects('C:\\Users\\dev\\ledgerly2', ['C:\\Users\\dev\\ledgerly']));
});
