import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { classifyLine, flaggedLines, isErrorLine } from './error-lines.js';

/** The error lines of a whole output, as the classifier sees them. */
const errors = (output: string) => output.split('\n').filter(isErrorLine);

describe('the error-line classifier, on real tool outputs', () => {
  it('Node: a TypeError with its stack, an AssertionError from node:test, ECONNRESET', () => {
    const node = `file:///home/dev/shop/src/cart.js:12
  return items.reduce((s, i) => s + i.price, 0);
               ^

TypeError: Cannot read properties of undefined (reading 'reduce')
    at total (file:///home/dev/shop/src/cart.js:12:16)
    at file:///home/dev/shop/src/index.js:4:13

Node.js v20.20.2`;
    assert.deepEqual(errors(node), ["TypeError: Cannot read properties of undefined (reading 'reduce')"]);
    const test = `✖ adds VAT (1.2ms)
  AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:

  119 !== 120

ℹ tests 12
ℹ pass 11
ℹ fail 1`;
    assert.deepEqual(errors(test), [
      '  AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:',
    ]);
    assert.deepEqual(
      errors('Error: read ECONNRESET\n    at TCP.onStreamRead (node:internal/stream_base_commons:217:20)'),
      ['Error: read ECONNRESET'],
    );
    assert.equal(isErrorLine('socket hang up (code ECONNRESET)'), true);
  });

  it('Python: a traceback ending in ValueError; pytest summaries', () => {
    const py = `Traceback (most recent call last):
  File "/home/dev/etl/load.py", line 41, in <module>
    rows = [int(x) for x in line.split(",")]
ValueError: invalid literal for int() with base 10: 'N/A'`;
    assert.deepEqual(errors(py), [
      'Traceback (most recent call last):',
      "ValueError: invalid literal for int() with base 10: 'N/A'",
    ]);
    assert.equal(isErrorLine("FAILED tests/test_load.py::test_bad_rows - KeyError: 'price'"), true);
    assert.equal(isErrorLine('=================== 1 failed, 23 passed in 2.31s ==================='), true);
    assert.equal(isErrorLine('=================== 24 passed in 2.02s ==================='), false);
  });

  it('npm, tsc, git and cargo', () => {
    const npm = `npm ERR! code ELIFECYCLE
npm ERR! errno 1
npm ERR! shop@1.0.0 build: \`tsc\`
npm WARN deprecated inflight@1.0.6: This module is not supported`;
    assert.deepEqual(errors(npm), npm.split('\n').slice(0, 3));
    assert.equal(classifyLine('npm WARN deprecated inflight@1.0.6: This module is not supported'), 'warning');
    assert.equal(isErrorLine("src/a.ts(4,23): error TS2307: Cannot find module './x.js'"), true);
    assert.equal(isErrorLine('Found 1 error in src/a.ts:4'), true);
    assert.equal(isErrorLine('error: failed to push some refs to github.com:acme/shop.git'), true);
    assert.equal(isErrorLine('fatal: not a git repository (or any of the parent directories): .git'), true);
    assert.equal(isErrorLine('error[E0308]: mismatched types'), true);
  });

  it('exit codes: non-zero is an error, zero is not', () => {
    assert.equal(isErrorLine('Exit code: 1'), true);
    assert.equal(isErrorLine('Process exited with code 2'), true);
    assert.equal(isErrorLine("Command '['make']' returned non-zero exit status 2."), true);
    assert.equal(isErrorLine('Exit code: 0'), false);
    assert.equal(isErrorLine('exited with code 0'), false);
  });

  it('not errors: words that merely start with e, summaries of none, Tapedeck markers', () => {
    for (const line of [
      'else if (retries > 3) exports.retry = every;',
      'Everything up-to-date',
      'econnreset handling is covered by test/net.test.ts',
      'ℹ fail 0',
      '0 errors, 0 warnings',
      'found 0 vulnerabilities',
      'Tests: 12 passed, 12 total',
      '[… 1843 more characters of output; error lines:]',
      '[… truncated 5120 more characters]',
      'Compiled successfully in 812 ms',
    ])
      assert.equal(isErrorLine(line), false, line);
  });

  it('finds the flagged lines of a long output in order, at most max, as the line classifier does', () => {
    const output = [
      'ok 1 - cart',
      'every test in this file ran',
      'npm WARN deprecated glob@7.2.3',
      'TypeError: x is not a function',
      'else branch covered',
      'Error: read ECONNRESET',
      'ENOENT: no such file or directory, open /tmp/x',
    ].join('\n');
    assert.deepEqual(
      flaggedLines(output, 10),
      output.split('\n').filter((l) => classifyLine(l)),
    );
    assert.deepEqual(flaggedLines(output, 2), [
      'npm WARN deprecated glob@7.2.3',
      'TypeError: x is not a function',
    ]);
    assert.deepEqual(flaggedLines('all good\nnothing here', 5), []);
  });
});
