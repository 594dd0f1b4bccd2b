// The search page's host code: it performs the core's effects and renders its state.
// The rules (load the first page of the latest query, cancel a load whose query is no
// longer wanted, drop late pages, retry after a failure) are the Swift core's, as in
// Examples/python/demo.py. Persistence is the host's: the journal's shape in
// localStorage (docs/web.md, "Persistence in the browser").
import * as corelogic from '/bindings/web/lib/corelogic.js';

const JOURNAL = 'corelogic.search.journal';
const SNAPSHOT = 'corelogic.search.snapshot';
const CHECKPOINT_EVERY = 20;

await corelogic.load(new URL('/.build/wasm/corelogic.wasm', location.href));

/** The inputs the user sent since the snapshot, as journal records: {"seq":N,"send":event}. */
function readJournal() {
  const snapshot = JSON.parse(localStorage.getItem(SNAPSHOT) || 'null');
  const records = (localStorage.getItem(JOURNAL) || '').split('\n').filter(Boolean).map((line) => JSON.parse(line));
  return { snapshot, records: records.filter((record) => !snapshot || record.seq > snapshot.seq) };
}

/** A system restored from the snapshot and the records after it (or a new one). */
function restore() {
  const { snapshot, records } = readJournal();
  let system;
  try {
    system = new corelogic.System('search', snapshot ? snapshot.state : null);
  } catch (error) {
    console.warn('the saved search state does not decode; starting over:', error.message);
    localStorage.removeItem(SNAPSHOT);
    localStorage.removeItem(JOURNAL);
    return { system: new corelogic.System('search'), seq: 0 };
  }
  let seq = snapshot ? snapshot.seq : 0;
  for (const record of records) {
    try { system.send(record.send); seq = record.seq; } catch (_) { break; }
  }
  return { system, seq };
}

const restored = restore();
const system = restored.system;
let seq = restored.seq;

function journal(event) {
  seq += 1;
  localStorage.setItem(JOURNAL, (localStorage.getItem(JOURNAL) || '') + JSON.stringify({ seq, send: event }) + '\n');
  if (seq % CHECKPOINT_EVERY === 0) checkpoint();
}

function checkpoint() {
  localStorage.setItem(SNAPSHOT, JSON.stringify({ feature: 'search', stateVersion: 1, seq, state: JSON.parse(system.stateJson) }));
  localStorage.setItem(JOURNAL, '');
}

// ---- effects ---------------------------------------------------------------------------

const runner = new corelogic.Runner(system, { trace: () => scheduleRender() });

/** The next page's URL from a Link header, relative to this origin. */
function nextURL(response) {
  const match = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get('Link') || '');
  if (!match) return null;
  const url = new URL(match[1], location.href);
  return url.pathname + url.search;
}

runner.effect('loadPage', async ({ url }, { signal }) => {
  let response;
  try {
    response = await fetch(url, { signal });
  } catch (error) {
    if (signal.aborted) return null; // cancelled: the core no longer wants it
    return { loadFailed: { error: { offline: {} } } };
  }
  if (response.status === 403) {
    const retryAfter = Number(response.headers.get('Retry-After') || '1');
    return { loadFailed: { error: { rateLimited: { retryAfter } } } };
  }
  if (!response.ok) return { loadFailed: { error: { offline: {} } } };
  const body = await response.json();
  const items = body.items.map(({ id, name, stars }) => ({ id, name, stars }));
  const next = nextURL(response);
  return { pageLoaded: next ? { items, nextURL: next } : { items } };
});

runner.effect('retryTimer', ({ seconds }, { signal }) => new Promise((resolve) => {
  const timer = setTimeout(() => resolve('retry'), seconds * 1000);
  signal.addEventListener('abort', () => { clearTimeout(timer); resolve(null); }, { once: true });
}));

// ---- the view --------------------------------------------------------------------------

const input = document.getElementById('query');
const status = document.getElementById('status');
const results = document.getElementById('results');
const more = document.getElementById('more');
let renderQueued = false;

function scheduleRender() {
  if (renderQueued) return;
  renderQueued = true;
  queueMicrotask(() => { renderQueued = false; render(); });
}

function describeError(error) {
  if (!error) return '';
  if ('rateLimited' in error) return `rate limited: retrying in ${error.rateLimited.retryAfter} s`;
  return 'offline: retrying';
}

function render() {
  if (system.closed) return;
  const state = system.state;
  const loading = system.query('isLoadingNextPage');
  status.dataset.loading = String(loading);
  status.dataset.error = state.lastError ? Object.keys(state.lastError)[0] : '';
  status.textContent = state.lastError ? describeError(state.lastError)
    : loading ? `Searching “${state.query}”…`
    : state.query ? `${state.items.length} repositories for “${state.query}”${state.nextURL ? '' : ' (all)'}`
    : 'Type to search.';
  results.replaceChildren(...state.items.map((item) => {
    const li = document.createElement('li');
    li.textContent = item.name;
    const stars = document.createElement('span');
    stars.className = 'stars';
    stars.textContent = `★ ${item.stars}`;
    li.append(stars);
    return li;
  }));
  more.hidden = !state.nextURL || loading;
  if (input.value !== state.query && document.activeElement !== input) input.value = state.query;
}

function send(event) {
  runner.send(event);
  journal(event);
  scheduleRender();
}

input.value = system.state.query;
input.addEventListener('input', () => send({ queryChanged: { text: input.value } }));
more.addEventListener('click', () => send('reachedBottom'));
addEventListener('pagehide', checkpoint);
runner.start();
render();
document.documentElement.dataset.ready = 'true';
