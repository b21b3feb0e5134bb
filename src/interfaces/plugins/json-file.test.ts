/** Editing settings text in place: what changes is only what the edit changed, laid out like its neighbours. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deletePath, editJson, setPath } from './json-file.js';

const roundTrip = (
  text: string,
  put: (o: Record<string, unknown>) => void,
  take: (o: Record<string, unknown>) => void,
) => {
  const added = editJson(text, 'settings.json', put);
  assert.ok(added !== null && added !== text, 'the edit changed the file');
  assert.equal(editJson(added, 'settings.json', take), text, 'undoing it gives the text back');
  return added;
};

test('a new key in a one-member-per-line object gets its own line at its neighbours’ indentation', () => {
  const text = '{\n    "a": 1, // one\n    "b": {"x": true}\n}\n';
  const out = roundTrip(
    text,
    (o) => setPath(o, ['mcpServers', 'tapedeck'], { command: 'node', args: ['t.js'] }),
    (o) => deletePath(o, ['mcpServers', 'tapedeck']),
  );
  assert.equal(
    out,
    '{\n    "a": 1, // one\n    "b": {"x": true},\n    "mcpServers": {\n        "tapedeck": {\n            "command": "node",\n            "args": [\n                "t.js"\n            ]\n        }\n    }\n}\n',
  );
});

test('a compact file stays compact, also when a value is replaced', () => {
  const text = '{"a":1,"mcpServers":{"tapedeck":"old"}}';
  const out = editJson(text, 's', (o) => setPath(o, ['mcpServers', 'tapedeck'], { command: 'node' }));
  assert.equal(out, '{"a":1,"mcpServers":{"tapedeck":{"command":"node"}}}');
});

test('array elements are inserted and removed as elements, first or last', () => {
  const text = '{\n  "a": [1, 2],\n  "b": [\n    1\n  ]\n}\n';
  const out = roundTrip(
    text,
    (o) => {
      (o.a as number[]).push(3);
      (o.b as number[]).unshift(0);
    },
    (o) => {
      (o.a as number[]).pop();
      (o.b as number[]).shift();
    },
  );
  assert.equal(out, '{\n  "a": [1, 2,3],\n  "b": [\n    0,\n    1\n  ]\n}\n');
});

test('comments and trailing commas are read; a real syntax error is refused with its place', () => {
  assert.equal(
    editJson('// c\n{"a": 1,}\n', 's', () => {}),
    '// c\n{"a": 1,}\n',
  );
  assert.throws(
    () => editJson('{\n  "a": 1\n  "b": 2\n}', 'settings.json', (o) => setPath(o, ['c'], 1)),
    /settings\.json is not valid JSON \(CommaExpected at line 3, column 3\)/,
  );
});

test('an object left empty removes the file, unless it is to be kept', () => {
  assert.equal(
    editJson('{"a": 1}', 's', (o) => deletePath(o, ['a'])),
    null,
  );
  assert.equal(
    editJson('{"a": 1}', 's', (o) => deletePath(o, ['a']), { keepEmpty: true }),
    '{}',
  );
});
