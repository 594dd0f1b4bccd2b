'use strict';
/**
 * The golden files (docs/golden-files.md) replayed through the Node.js binding. Verdicts
 * and FAIL lines follow the C runner (Tests/c/golden_runner.c): the hosts must agree on
 * every file.
 *
 *     node bindings/node/test/golden.js [golden-directory]     (default Examples/Cookbook/golden)
 *
 * Ends with "golden-node: N passed, N failed"; exit status 1 on any failure.
 *
 * The files are read with a parser of its own, so that what is sent is what the file
 * says: integers keep every digit (JSON.parse would round those above 2^53), numbers
 * with a fraction or exponent stay numbers with one, and object members keep their order
 * (the first member of a step is its action, whatever its name).
 */

const fs = require('fs');
const path = require('path');
const corelogic = require('..');

// ---- a JSON reader that keeps numbers' kinds and members' order ----------------------

/** A number from a file: its value, and how to write it back. */
class GNumber {
  constructor(text) {
    this.value = Number(text);
    this.integer = /^-?\d+$/.test(text);
    if (this.integer) {
      const big = BigInt(text);
      this.integer = big >= -(1n << 63n) && big < (1n << 64n);
      if (this.integer) this.text = big.toString();
    }
    if (!this.integer) {
      if (!Number.isFinite(this.value)) throw new SyntaxError(`number out of range: ${text}`);
      const written = String(this.value);
      this.text = /[.e]/.test(written) ? written : `${written}.0`;
    }
  }
}

function parse(text) {
  let at = 0;
  const fail = (what) => { throw new SyntaxError(`${what} at offset ${at}`); };
  const space = () => { while (at < text.length && ' \t\r\n'.includes(text[at])) at++; };
  const value = (depth) => {
    space();
    const c = text[at];
    if ((c === '{' || c === '[') && depth + 1 > 128) fail('nesting deeper than 128 levels');
    if (c === '{') {
      at++;
      const object = new Map();
      space();
      if (text[at] === '}') { at++; return object; }
      for (;;) {
        space();
        if (text[at] !== '"') fail('expected a member name');
        const keyAt = at;
        const key = string();
        if (key.includes('\0')) { at = keyAt; fail('object key containing U+0000'); }
        if (object.has(key)) { at = keyAt; fail(`duplicate key ${JSON.stringify(key)}`); }
        space();
        if (text[at] !== ':') fail("expected ':'");
        at++;
        const member = value(depth + 1);
        object.set(key, member);
        space();
        const next = text[at++];
        if (next === '}') return object;
        if (next !== ',') fail("expected ',' or '}'");
      }
    }
    if (c === '[') {
      at++;
      const array = [];
      space();
      if (text[at] === ']') { at++; return array; }
      for (;;) {
        array.push(value(depth + 1));
        space();
        const next = text[at++];
        if (next === ']') return array;
        if (next !== ',') fail("expected ',' or ']'");
      }
    }
    if (c === '"') return string();
    for (const [word, result] of [['true', true], ['false', false], ['null', null]]) {
      if (text.startsWith(word, at)) { at += word.length; return result; }
    }
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(at, at + 400));
    if (!match) fail('unexpected character');
    at += match[0].length;
    return new GNumber(match[0]);
  };
  const hex4 = () => {
    const digits = text.slice(at, at + 4);
    if (!/^[0-9a-fA-F]{4}$/.test(digits)) fail('invalid \\u escape');
    at += 4;
    return parseInt(digits, 16);
  };
  const string = () => {
    at++;
    let out = '';
    for (;;) {
      if (at >= text.length) fail('unterminated string');
      const c = text[at++];
      if (c === '"') return out;
      if (c < ' ') fail('control character in a string');
      if (c !== '\\') { out += c; continue; }
      const e = text[at++];
      const simple = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' }[e];
      if (simple !== undefined) { out += simple; continue; }
      if (e !== 'u') fail('invalid escape');
      const code = hex4();
      if (code >= 0xdc00 && code <= 0xdfff) fail('unpaired low surrogate escape');
      if (code >= 0xd800 && code <= 0xdbff) {
        if (text.slice(at, at + 2) !== '\\u') fail('unpaired high surrogate escape');
        at += 2;
        const low = hex4();
        if (low < 0xdc00 || low > 0xdfff) fail('unpaired high surrogate escape');
        out += String.fromCharCode(code, low);
      } else {
        out += String.fromCharCode(code);
      }
    }
  };
  const result = value(0);
  space();
  if (at < text.length) fail('trailing characters after the JSON value');
  return result;
}

/** Compact JSON of a parsed value (numbers as the file wrote them). */
function write(value) {
  if (value === null) return 'null';
  if (value instanceof GNumber) return value.text;
  if (typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(write).join(',')}]`;
  return `{${[...value].map(([key, member]) => `${JSON.stringify(key)}:${write(member)}`).join(',')}}`;
}

const isObject = (value) => value instanceof Map;
const isNumber = (value) => value instanceof GNumber;

// ---- one step ------------------------------------------------------------------------

class Abort extends Error {}

function goldenStatus(status) {
  if (status === 0) return 'ok';
  if (status === 1) return 'stale';
  return `error:${corelogic.statusName(status).replace(/^CORELOGIC_ERR_/, '').toLowerCase()}`;
}

function effectId(value) {
  if (isNumber(value) && value.integer && !value.text.startsWith('-')) return BigInt(value.text);
  throw new Abort('expected an effect id (a non-negative integer)');
}

/** Runs one step; describes what happened in the shape of an `expect` object. */
function perform(action, argument, system) {
  const before = system.stateJson;
  let result = null;
  let status = 0;
  let message = '';
  try {
    if (action === 'send') {
      result = system.send(corelogic.raw(write(argument)));
    } else if (action === 'sendRaw') {
      if (typeof argument !== 'string') throw new Abort('sendRaw takes a string');
      result = system.sendJson(argument);
    } else if (action === 'deliver') {
      const args = isObject(argument) ? argument : new Map();
      const id = effectId(args.get('effect'));
      if (typeof args.get('raw') === 'string') {
        result = system.deliver(id, corelogic.raw(args.get('raw')));
      } else {
        if (!args.has('event')) throw new Abort('deliver needs "event" or "raw"');
        result = system.deliver(id, corelogic.raw(write(args.get('event'))));
      }
    } else if (action === 'complete') {
      const effect = isObject(argument) && argument.has('effect') ? argument.get('effect') : argument;
      result = system.complete(effectId(effect));
    } else if (action === 'query') {
      if (typeof argument !== 'string') throw new Abort('query takes a query name');
      result = { value: parse(system.queryJson(argument)) };
    } else {
      throw new Abort(`unknown action '${action}'; actions: send, sendRaw, deliver, complete, query`);
    }
    if (result === corelogic.STALE) status = 1;
  } catch (error) {
    if (!(error instanceof corelogic.CorelogicError) || error instanceof corelogic.LibraryError) throw error;
    status = error.status;
    message = error.libraryMessage;
  }
  const actual = new Map([['status', goldenStatus(status)]]);
  if (status === 0 && action === 'query') {
    actual.set('value', result.value);
  } else if (status === 0) {
    // The library's text through the runner's own reader: integers keep every digit.
    const batch = parse(result.json);
    actual.set('state', batch.get('state'));
    actual.set('effects', batch.get('effects'));
    if (result.steps !== 1) actual.set('steps', batch.get('steps'));
  } else {
    if (system.stateJson !== before) actual.set('stateChanged', `the state changed on a ${goldenStatus(status)} input`);
    if (message !== '') actual.set('message', message);
  }
  return actual;
}

// ---- comparison ----------------------------------------------------------------------

function differences(expected, actual, where, out) {
  if (isObject(expected) && isObject(actual)) {
    for (const [key, value] of expected) {
      if (actual.has(key)) differences(value, actual.get(key), `${where}.${key}`, out);
      else out.push(`${where}.${key}: expected ${write(value)}, missing`);
    }
    for (const [key, value] of actual) {
      if (!expected.has(key)) out.push(`${where}.${key}: not expected, got ${write(value)}`);
    }
    return;
  }
  if (Array.isArray(expected) && Array.isArray(actual)) {
    for (let i = 0; i < Math.max(expected.length, actual.length); i++) {
      const item = `${where}[${i}]`;
      if (i >= actual.length) out.push(`${item}: expected ${write(expected[i])}, missing`);
      else if (i >= expected.length) out.push(`${item}: not expected, got ${write(actual[i])}`);
      else differences(expected[i], actual[i], item, out);
    }
    return;
  }
  if (sameNumber(expected, actual)) return;
  if (write(expected) === write(actual) && !isNumber(expected) === !isNumber(actual)) return;
  out.push(`${where}: expected ${write(expected)}, got ${write(actual)}`);
}

/** Numbers by value: integers exactly, whatever their width; otherwise as doubles. */
function sameNumber(a, b) {
  if (!isNumber(a) || !isNumber(b)) return false;
  if (a.integer && b.integer) return BigInt(a.text) === BigInt(b.text);
  return a.value === b.value;
}

function compare(expected, actual, out) {
  if (!isObject(expected)) { out.push('expect is not an object'); return; }
  if (actual.has('stateChanged')) out.push(write(actual.get('stateChanged')));
  for (const [key, value] of expected) {
    if (key === 'error') {
      if (typeof value !== 'string') { out.push('error: expected a string'); continue; }
      const message = typeof actual.get('message') === 'string' ? actual.get('message') : '';
      if (!message.includes(value)) out.push(`error: expected a message containing ${write(value)}, got ${write(message)}`);
      continue;
    }
    if (!actual.has(key)) {
      out.push(`${key}: expected ${write(value)}, missing (status ${write(actual.get('status'))})`);
      continue;
    }
    differences(value, actual.get(key), key === 'status' ? 'status' : `$.${key}`, out);
  }
}

// ---- one file ------------------------------------------------------------------------

function run(file, out) {
  if (!isObject(file)) { out.push('the file is not a JSON object'); return; }
  const feature = file.get('feature');
  if (typeof feature !== 'string') { out.push('missing "feature"'); return; }
  const steps = file.get('steps');
  if (!Array.isArray(steps)) { out.push('missing "steps" array'); return; }
  const first = file.get('state');
  let system;
  try {
    system = new corelogic.System(feature, first === null || first === undefined ? null : corelogic.raw(write(first)));
  } catch (error) {
    if (!(error instanceof corelogic.CorelogicError)) throw error;
    out.push(error instanceof corelogic.NotFoundError
      ? `${error.statusName}: ${error.libraryMessage}`
      : `"state": ${error.statusName}: ${error.libraryMessage}`);
    return;
  }
  try {
    if (file.has('expectInitial')) {
      const batch = parse(system.initialBatch.json);
      const initial = new Map([['state', batch.get('state')], ['effects', batch.get('effects')]]);
      const found = [];
      compare(file.get('expectInitial'), initial, found);
      for (const line of found) out.push(`expectInitial: ${line}`);
    }
    for (let i = 0; i < steps.length; i++) {
      const step = steps[i];
      const label = `step ${i + 1}`;
      if (!isObject(step) || step.size === 0) { out.push(`${label}: not an object whose first key is the action`); break; }
      const [action, argument] = step.entries().next().value;
      const expected = step.has('expect') ? step.get('expect') : new Map();
      let actual;
      try {
        actual = perform(action, argument, system);
      } catch (error) {
        if (!(error instanceof Abort)) throw error;
        out.push(`${label} (${action}): ${error.message}`);
        break;
      }
      const found = [];
      compare(expected, actual, found);
      for (const line of found) out.push(`${label} (${action}): ${line}`);
      const was = isObject(expected) ? expected.get('status') : undefined;
      const now = actual.get('status');
      if ((was === 'ok' || was === 'stale') && now.startsWith('error:')) {
        out.push(`${label} (${action}) no longer decodes: ${actual.has('message') ? write(actual.get('message')) : now}`);
        break;
      }
    }
  } finally {
    system.close();
  }
}

/** Runs one file; returns its failures (none when it passes). */
function runFile(file) {
  let parsed;
  try {
    // As strict as the C runner's reader: invalid UTF-8 (or a byte order mark),
    // duplicate keys, unpaired surrogate escapes and nesting deeper than 128 fail the file.
    const bytes = fs.readFileSync(file);
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
    parsed = parse(text);
  } catch (error) {
    if (error instanceof SyntaxError) return [error.message];
    if (error instanceof TypeError && error.code === 'ERR_ENCODING_INVALID_ENCODED_DATA') return ['invalid UTF-8'];
    return [`cannot read the file: ${error.message}`];
  }
  const out = [];
  run(parsed, out);
  return out;
}

/** The .json files in the subdirectories of root (its top level holds schema.json), sorted. */
function collect(root) {
  const found = [];
  const walk = (dir, depth) => {
    let entries;
    try { entries = fs.readdirSync(dir, { withFileTypes: true }); } catch (_) { return; }
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const full = path.join(dir, entry.name);
      if (fs.statSync(full).isDirectory()) walk(full, depth + 1);
      else if (depth > 0 && entry.name.endsWith('.json')) found.push(full);
    }
  };
  walk(root, 0);
  return found.sort((a, b) => (Buffer.compare(Buffer.from(a), Buffer.from(b))));
}

/**
 * <root>/comparisons.json, if there is one: the cases every host's comparator must agree
 * on (docs/golden-files.md). Returns its FAIL lines and counts.
 */
function checkComparisons(root) {
  const file = path.join(root, 'comparisons.json');
  if (!fs.existsSync(file)) return null;
  const lines = [];
  let cases;
  try {
    cases = parse(new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(fs.readFileSync(file))).get('cases');
  } catch (error) {
    return { passed: 0, failed: 1, lines: [`FAIL comparisons.json: ${error.message}`] };
  }
  if (!Array.isArray(cases) || cases.length === 0) return { passed: 0, failed: 1, lines: ['FAIL comparisons.json: no cases'] };
  let passed = 0;
  let failed = 0;
  cases.forEach((item, i) => {
    const found = [];
    let ok = isObject(item) && item.has('expected') && item.has('actual') && typeof item.get('equal') === 'boolean';
    if (ok) {
      differences(item.get('expected'), item.get('actual'), '$', found);
      ok = (found.length === 0) === item.get('equal');
    }
    const where = ok ? item.get('path') : undefined;
    if (ok && typeof where === 'string') ok = found.length > 0 && found[0].startsWith(`${where}:`);
    if (ok) {
      passed++;
    } else {
      failed++;
      const rule = isObject(item) && typeof item.get('rule') === 'string' ? item.get('rule') : '?';
      lines.push(`FAIL comparisons.json: case ${i} (${rule}): ${found.length > 0 ? found[0] : 'no difference found'}`);
    }
  });
  return { passed, failed, lines };
}

function main(argv) {
  const root = (argv[0] || 'Examples/Cookbook/golden').replace(/\/+$/, '');
  const files = collect(root);
  if (files.length === 0) {
    console.error(`golden-node: no golden files under ${root}`);
    return 1;
  }
  let passed = 0;
  let failed = 0;
  const parent = path.dirname(root);
  for (const file of files) {
    const failures = runFile(file);
    if (failures.length === 0) {
      passed++;
    } else {
      failed++;
      const name = path.relative(parent, file);
      for (const failure of failures) console.log(`FAIL ${name}: ${failure}`);
    }
  }
  console.log(`golden-node: ${passed} passed, ${failed} failed`);
  const comparisons = checkComparisons(root);
  if (comparisons) {
    for (const line of comparisons.lines) console.log(line);
    console.log(`comparisons-node: ${comparisons.passed} passed, ${comparisons.failed} failed`);
  }
  return failed === 0 && (!comparisons || comparisons.failed === 0) ? 0 : 1;
}

module.exports = { parse, write, runFile, collect, checkComparisons };

if (require.main === module) process.exitCode = main(process.argv.slice(2));
