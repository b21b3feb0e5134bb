import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkSpaceName, createSpaceService } from './spaces.js';

test('a space comes from the call, then TAPEDECK_SPACE, then the longest mapped project prefix, then default', () => {
  const mappings = { '/home/me/work': 'work', '/home/me/work/oss': 'oss', '/home/me/personal/': 'personal' };
  const none = createSpaceService({ mappings });
  assert.deepEqual(none.explain({}), { space: 'default', from: 'default' });
  assert.deepEqual(none.explain({ cwd: '/home/me/work/api' }), { space: 'work', from: 'config' });
  assert.equal(none.resolve({ project: '/home/me/work/oss/lib' }), 'oss', 'the longest prefix wins');
  assert.equal(none.resolve({ project: '/home/me/personal' }), 'personal', 'trailing slashes do not matter');
  assert.equal(none.resolve({ project: '/home/me/workshop' }), 'default', 'a prefix must end at a directory');
  assert.equal(
    none.resolve({ project: '/home/me/work/oss', cwd: '/tmp' }),
    'oss',
    'the project wins over the cwd',
  );
  const env = createSpaceService({ envSpace: 'client-a', mappings });
  assert.deepEqual(env.explain({ project: '/home/me/work' }), { space: 'client-a', from: 'env' });
  assert.deepEqual(env.explain({ space: 'scratch', project: '/home/me/work' }), {
    space: 'scratch',
    from: 'explicit',
  });
});

test('space names are lowercase kebab-case up to 64 characters; "all" is reserved', () => {
  for (const ok of ['default', 'work', 'client-a', 'x1', 'a'.repeat(64)])
    assert.equal(checkSpaceName(ok), ok);
  for (const bad of ['', 'Work', 'my space', 'a_b', '-a', 'a-', 'a--b', 'a'.repeat(65), 'all'])
    assert.throws(() => checkSpaceName(bad), { code: 'INVALID_INPUT' }, bad);
  assert.throws(() => createSpaceService({ envSpace: 'Bad Space' }).resolve(), /TAPEDECK_SPACE/);
});
