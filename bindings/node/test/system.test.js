'use strict';
// The JavaScript API over the C ABI: batches, errors, handlers, lifetimes, persistence.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const corelogic = require('..');

const SWIFT = { queryChanged: { text: 'swift' } };

test('the library matches the binding ABI and lists its features', () => {
  assert.equal(corelogic.abiVersion(), corelogic.ABI_VERSION);
  assert.match(corelogic.version(), /^\d+\.\d+\.\d+$/);
  assert.equal(corelogic.BINDING_VERSION, corelogic.version());   // both from include/corelogic.h
  const names = corelogic.features().map((feature) => feature.name);
  for (const name of ['counter', 'search', 'downloads']) assert.ok(names.includes(name), names.join());
});

test('every error status of corelogic.h has a class of its own, named after it', () => {
  const header = fs.readFileSync(path.join(__dirname, '..', '..', '..', 'include', 'corelogic.h'), 'utf8');
  const statuses = [...header.matchAll(/^#define CORELOGIC_(ERR_\w+) \((-\d+)\)$/gm)];
  assert.ok(statuses.length >= 8, `${statuses.length} error statuses in the header`);
  const classes = new Set();
  for (const [, name, value] of statuses) {
    assert.equal(corelogic[name], Number(value), name);
    const error = corelogic.errorForStatus(Number(value), 'message');
    assert.notEqual(error.constructor, corelogic.CorelogicError, `${name} has no class of its own`);
    assert.equal(error.statusName, `CORELOGIC_${name}`);
    assert.equal(error.status, Number(value));
    classes.add(error.constructor);
  }
  assert.equal(classes.size, statuses.length);
});

test('a send returns the state, the effects and the step count', () => {
  const search = new corelogic.System('search');
  const batch = search.send(SWIFT);
  assert.equal(batch.state.query, 'swift');
  assert.equal(batch.steps, 1);
  assert.deepEqual(batch.started, [{ id: 1, feedback: 'loadPage', request: { url: '/search/repositories?q=swift' } }]);
  assert.deepEqual(search.effects, batch.started);
  assert.deepEqual(search.state, batch.state);
  search.close();
});

test('a case name, an object and raw JSON are all events', () => {
  const counter = new corelogic.System('counter');
  counter.send('increment');
  counter.send({ increment: {} });
  assert.equal(counter.sendJson('"increment"').state.count, 3);
  assert.equal(counter.stateJson, '{"count":3}');
  assert.equal(counter.query('isZero'), false);
  counter.close();
});

test('a system starts from a given state and starts what it asks for', () => {
  const loading = { query: 'swift', items: [], nextURL: '/search/repositories?q=swift', shouldLoadNextPage: true };
  const search = new corelogic.System('search', loading);
  assert.equal(search.initialBatch.steps, 0);
  assert.equal(search.initialBatch.started.length, 1);
  assert.equal(search.effects.length, 1);
  search.close();
});

test('each status becomes its error class with the library message, and the state is unchanged', () => {
  const search = new corelogic.System('search');
  search.send(SWIFT);
  const before = search.stateJson;
  assert.throws(() => search.send({ queryChanged: { text: 5 } }), (error) => {
    assert.ok(error instanceof corelogic.SchemaError);
    assert.ok(error instanceof corelogic.CorelogicError);
    assert.equal(error.status, corelogic.ERR_SCHEMA);
    assert.equal(error.statusName, 'CORELOGIC_ERR_SCHEMA');
    assert.match(error.libraryMessage, /\$\.queryChanged\.text/);
    return true;
  });
  assert.throws(() => search.sendJson('{"retry":'), (error) => error instanceof corelogic.JSONError
    && error.libraryMessage.startsWith('corelogic_system_send'));
  assert.throws(() => search.query('nope'), (error) => error instanceof corelogic.NotFoundError
    && /isLoadingNextPage/.test(error.libraryMessage));
  assert.equal(search.stateJson, before);
  search.close();
  assert.throws(() => new corelogic.System('nope'), (error) => error instanceof corelogic.NotFoundError
    && /counter/.test(error.libraryMessage));
  assert.throws(() => new corelogic.System('counter', { count: 'x' }), corelogic.SchemaError);
});

test('a late result is stale and never reaches the reducer', () => {
  const search = new corelogic.System('search');
  const first = search.send(SWIFT).started[0].id;
  const second = search.send({ queryChanged: { text: 'swiftui' } });
  assert.deepEqual(second.cancelled, [first]);
  const before = search.stateJson;
  const late = search.deliver(first, { pageLoaded: { items: [] } });
  assert.equal(late, corelogic.STALE);
  assert.equal(late.stale, true);
  assert.equal(search.stateJson, before);
  assert.equal(search.complete(BigInt(first)), corelogic.STALE);
  assert.equal(search.complete((1n << 64n) - 1n), corelogic.STALE);
  search.close();
});

test('arguments are checked before the call', () => {
  const counter = new corelogic.System('counter');
  const argument = (error) => error instanceof corelogic.ArgumentError && error.status === corelogic.ERR_ARG;
  assert.throws(() => counter.send(), argument);
  assert.throws(() => counter.sendJson('"increment"\0junk'), argument);
  assert.throws(() => counter.send({ increment: 1n }), argument);
  assert.throws(() => counter.send({ increment: { by: NaN } }), argument);
  assert.throws(() => counter.deliver(-1, 'increment'), argument);
  assert.throws(() => counter.deliver(1.5, 'increment'), argument);
  assert.throws(() => counter.deliver(1n << 64n, 'increment'), argument);
  assert.throws(() => counter.query(42), argument);
  assert.throws(() => counter.onCommand('not a function'), argument);
  assert.throws(() => new corelogic.System(undefined), argument);
  assert.equal(counter.state.count, 0);
  counter.close();
});

test('a lone surrogate reaches the library as invalid UTF-8, never as a substituted character', () => {
  const counter = new corelogic.System('counter');
  assert.throws(() => counter.sendJson('"incr\uD800ement"'), (error) => error instanceof corelogic.JSONError
    && /utf-8/i.test(error.libraryMessage));
  assert.throws(() => counter.send('incr\uD800ement'), (error) => error instanceof corelogic.JSONError
    && /surrogate/.test(error.libraryMessage));
  assert.equal(counter.state.count, 0);
  counter.close();
});

test('a closed system throws HandleError and close is idempotent', () => {
  const counter = new corelogic.System('counter');
  counter.close();
  counter.close();
  assert.equal(counter.closed, true);
  assert.throws(() => counter.send('increment'), (error) => error instanceof corelogic.HandleError
    && error.status === corelogic.ERR_HANDLE);
  assert.throws(() => counter.stateJson, corelogic.HandleError);
  assert.throws(() => counter.onCommand(() => {}), corelogic.HandleError);
});

test('a freed or foreign handle is an error, not a crash', () => {
  const counter = new corelogic.System('counter');
  const handle = counter._cell.handle;
  counter.close();
  // A stale copy of the system (what a bug in a host might hold) still cannot reach freed memory.
  const stale = Object.create(corelogic.System.prototype);
  stale._feature = 'counter';
  for (const value of [handle, 0x5eedf00dn]) {
    stale._cell = { handle: value };
    assert.throws(() => stale.send('increment'), (error) => error instanceof corelogic.HandleError
      && error.libraryMessage.startsWith('corelogic_system_send'));
  }
});

test('handlers see every command and state, and their calls are queued', () => {
  const search = new corelogic.System('search');
  const commands = [];
  const queries = [];
  const inner = [];
  search.onCommand((command) => {
    commands.push(command);
    if (command.start) {
      inner.push(search.deliver(command.start.id, { pageLoaded: { items: [{ id: 1, name: 'a/b', stars: 1 }] } }));
    }
  });
  search.onState((state) => queries.push(state.query));
  const batch = search.send(SWIFT);
  assert.equal(batch.steps, 2);
  assert.equal(batch.state.items.length, 1);
  assert.equal(inner[0].steps, 0);
  assert.ok(commands[0].start);
  assert.deepEqual(queries, ['swift', 'swift']);
  search.onCommand(null);
  search.onState(null);
  search.send({ queryChanged: { text: '' } });
  assert.equal(queries.length, 2);
  search.close();
});

test('a handler may close its own system', () => {
  const search = new corelogic.System('search');
  const seen = [];
  search.onCommand((command) => {
    seen.push(command);
    search.close();
  });
  const batch = search.send(SWIFT);
  assert.equal(batch.steps, 1);
  assert.equal(seen.length, 1);
  assert.equal(search.closed, true);
  assert.throws(() => search.send(SWIFT), corelogic.HandleError);
});

test('a throwing handler is reported and the call still succeeds', (t) => {
  const reported = [];
  t.mock.method(console, 'error', (...args) => reported.push(args));
  const counter = new corelogic.System('counter');
  counter.onState(() => { throw new Error('boom'); });
  assert.equal(counter.send('increment').state.count, 1);
  assert.equal(counter.send('increment').state.count, 2);
  assert.equal(reported.length, 2);
  counter.close();
});

test('a journaled system restores its state and effects', () => {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'corelogic-node-'));
  try {
    const journal = path.join(directory, 'search');
    const search = new corelogic.System('search');
    search.openJournal(journal, corelogic.Durability.EVERY_INPUT);
    search.send(SWIFT);
    search.close();
    assert.ok(fs.existsSync(path.join(journal, 'snapshot.json')));
    const restored = corelogic.System.restore('search', journal);
    assert.equal(restored.state.query, 'swift');
    assert.equal(restored.initialBatch.started.length, 1);
    assert.equal(restored.restoreReport.replayed, 1);
    restored.checkpoint();
    restored.syncJournal();
    restored.closeJournal();
    restored.close();
    assert.throws(() => corelogic.System.restore('search', path.join(directory, 'missing')), corelogic.StorageError);
    const counter = new corelogic.System('counter');
    assert.throws(() => counter.openJournal(journal, 7), corelogic.ArgumentError);
    counter.close();
  } finally {
    fs.rmSync(directory, { recursive: true, force: true });
  }
});
