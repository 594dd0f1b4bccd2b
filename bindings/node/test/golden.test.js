'use strict';
// The golden runner itself can fail: a file with wrong expectations is reported line by line.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const golden = require('./golden');

function scenario(name, content) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'corelogic-golden-'));
  const file = path.join(root, 'counter', name);
  fs.mkdirSync(path.dirname(file));
  fs.writeFileSync(file, content);
  return { root, file };
}

test('the runner reports a wrong expectation', () => {
  const { root, file } = scenario('wrong.json', JSON.stringify({
    feature: 'counter', description: 'wrong on purpose', state: null,
    steps: [
      { send: 'increment', expect: { status: 'ok', state: { count: 2 } } },
      { query: 'isZero', expect: { status: 'ok', value: 0 } },
      { deliver: { effect: 1, event: 'increment' }, expect: { status: 'ok' } },
    ],
  }));
  try {
    assert.deepEqual(golden.collect(root), [file]);
    assert.deepEqual(golden.runFile(file), [
      'step 1 (send): $.state.count: expected 2, got 1',
      'step 2 (query): $.value: expected 0, got false',
      'step 3 (deliver): status: expected "ok", got "stale"',
    ]);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('numbers keep their digits and kind when sent', () => {
  assert.equal(golden.write(golden.parse('[18446744073709551615,1.0,1e2,-0,2.5]')), '[18446744073709551615,1.0,100.0,0,2.5]');
  assert.deepEqual([...golden.parse('{"b":1,"a":2}').keys()], ['b', 'a']);
});

test('an effect id beyond 2^53 reaches the library exactly', () => {
  const { root, file } = scenario('big-id.json', `{"feature": "counter", "description": "big id", "state": null,
    "steps": [{"complete": {"effect": 18446744073709551615}, "expect": {"status": "stale"}}]}`);
  try {
    assert.deepEqual(golden.runFile(file), []);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('edge cases get the same verdict as the other runners (Tests/hosts/golden-edge)', () => {
  const edge = path.join(__dirname, '..', '..', '..', 'Tests', 'hosts', 'golden-edge');
  const files = golden.collect(edge);
  assert.ok(files.length >= 30, `edge cases found: ${files.length}`);
  for (const file of files) {
    const passes = path.basename(file).startsWith('passes-');
    const failures = golden.runFile(file);
    assert.equal(failures.length === 0, passes, `${file}: ${failures.join('; ')}`);
  }
});

test('the comparator follows the shared cases (Examples/Cookbook/golden/comparisons.json)', () => {
  const result = golden.checkComparisons(path.join(__dirname, '..', '..', '..', 'Examples', 'Cookbook', 'golden'));
  assert.deepEqual(result.lines, []);
  assert.ok(result.passed >= 10, `cases passed: ${result.passed}`);
});
