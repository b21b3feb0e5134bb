import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isLoopbackAddress, isLoopbackHost } from '../../app/loopback.js';
import { clientKey } from './auth.js';
import { createThrottle } from './throttle.js';

test('free failures, then lockouts that double up to a cap, forgotten after a while', () => {
  const clock = { now: 0 };
  const t = createThrottle({ free: 2, baseMs: 100, maxMs: 350, forgetMs: 10_000 }, () => clock.now);
  assert.equal(t.fail('a'), 0);
  assert.equal(t.fail('a'), 0);
  assert.equal(t.fail('a'), 100);
  assert.equal(t.wait('a'), 100);
  assert.equal(t.wait('b'), 0, 'other clients are not affected');
  assert.equal(t.fail('a'), 200);
  assert.equal(t.fail('a'), 350, 'capped');
  clock.now += 400;
  assert.equal(t.wait('a'), 0);
  clock.now += 10_001;
  assert.equal(t.fail('a'), 0, 'a clean slate after forgetMs');
});

test('memory is bounded: the stalest clients are dropped first', () => {
  const t = createThrottle({ maxEntries: 100 });
  for (let i = 0; i < 1000; i++) t.fail(`10.0.${i >> 8}.${i & 255}`);
  assert.equal(t.size, 100);
});

test('client keys: IPv4 as is, IPv4-mapped unwrapped, IPv6 per /64', () => {
  assert.equal(clientKey('203.0.113.9'), '203.0.113.9');
  assert.equal(clientKey('::ffff:203.0.113.9'), '203.0.113.9');
  assert.equal(clientKey('2001:db8:1:2:3:4:5:6'), '2001:db8:1:2::/64');
  assert.equal(clientKey('2001:db8:1:2::9'), '2001:db8:1:2::/64');
  assert.equal(clientKey('2001:db8::1'), '2001:db8:0:0::/64');
});

test('loopback addresses and hosts', () => {
  for (const a of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) assert.ok(isLoopbackAddress(a), a);
  for (const a of ['10.0.0.1', '0.0.0.0', '::', '', undefined]) assert.ok(!isLoopbackAddress(a), String(a));
  for (const h of ['localhost', 'api.localhost', '127.0.0.1', '::1', '[::1]'])
    assert.ok(isLoopbackHost(h), h);
  for (const h of ['0.0.0.0', 'example.com', '192.168.1.2', '::']) assert.ok(!isLoopbackHost(h), h);
});
