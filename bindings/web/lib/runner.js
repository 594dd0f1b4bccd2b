// Generated from bindings/node/lib/runner.js by bindings/web/esm.mjs: change that file.
/**
 * Runner: the host side of the feedback loop, with Promise-based handlers.
 *
 *     const runner = new corelogic.Runner(search);
 *     runner.effect('loadPage', async (request, { signal }) => {
 *       const response = await fetch(base + request.url, { signal });
 *       return { pageLoaded: await response.json() };
 *     });
 *     runner.start();
 *     runner.send({ queryChanged: { text: 'swift' } });
 *     const state = await runner.runUntil((s) => s.items.length > 0, { timeout: 5000 });
 *     runner.close();
 *
 * One handler per feedback name. Each `start` command runs the handler with the request
 * and a context { id, feedback, signal, deliver }; each `cancel` aborts its signal (an
 * AbortController per effect), and whatever the handler still returns or delivers is
 * dropped. The handler's result (an event, or null/undefined for none) is delivered,
 * then the effect is completed. Results of an effect no longer running are dropped (the
 * library answers STALE): handlers never check that. A handler that throws or rejects
 * has its error passed to `onError(error, effect)`, which may return an event to deliver;
 * without it the error is reported with console.error. Either way the effect completes.
 *
 * Everything happens on the JavaScript thread: the runner registers the system's command
 * and state handlers (called during the call that produces a command) and starts the
 * effect's handler in a microtask, after that call has returned. When started it also
 * runs handlers for effects already running (a creation batch, a restored state).
 * One runner per system. In patch mode (System#setOutput) the runner follows the
 * patches with a StateMirror, so runUntil's predicates still see whole states.
 */

import { ArgumentError, HandleError, TimeoutError } from './errors.js';
import { StateMirror } from './patch.js';
import { Output, System, features } from './system.js';

class Runner {
  /**
   * @param {import('./system').System} system
   * @param {{onError?: (error: unknown, effect: {id, feedback, request}) => unknown,
   *          trace?: (kind: string, id: number, detail: unknown) => void}} [options]
   */
  constructor(system, options = {}) {
    if (!(system instanceof System)) throw new ArgumentError('a Runner needs a corelogic.System');
    this.system = system;
    this.onError = options.onError || null;
    this.trace = options.trace || null;
    this._handlers = new Map();
    const description = features().find((feature) => feature.name === system.feature);
    this._feedbacks = new Set(description ? description.feedbacks.map((feedback) => feedback.name) : []);
    this._running = new Map(); // id -> { feedback, controller }
    this._started = false;
    this._closed = false;
    this._state = null;
    this._mirror = null; // patch mode: the runner's copy of the state
    this._resyncQueued = false;
    this._waiters = new Set();
    this._warned = new Set();
  }

  /**
   * Registers the handler of the feedback `feedback`: `async (request, context) => event`.
   * @throws {ArgumentError} the feature has no such feedback, or the handler is not a function
   */
  effect(feedback, handler) {
    if (!this._feedbacks.has(feedback)) {
      const known = [...this._feedbacks].sort().join(', ') || 'none';
      throw new ArgumentError(`feature '${this.system.feature}' has no feedback '${feedback}' (feedbacks: ${known})`);
    }
    if (typeof handler !== 'function') throw new ArgumentError(`the handler of '${feedback}' must be a function`);
    this._handlers.set(feedback, handler);
    return this;
  }

  /** Sends an event to the system (the same as system.send). */
  send(event) {
    return this.system.send(event);
  }

  /** The latest state the runner has seen. */
  get state() {
    return this._state !== null ? this._state : this.system.state;
  }

  /** The effects whose handlers are running: Map of id -> feedback. */
  get running() {
    return new Map([...this._running].map(([id, record]) => [id, record.feedback]));
  }

  /** Attaches to the system and runs handlers for the effects already running. Idempotent. */
  start() {
    if (this._closed) throw new Error('this runner is closed');
    if (this._started) return this;
    if (this.system._commandHandler) {
      throw new Error(`the ${this.system.feature} system already has a command handler (another runner?): one runner per system`);
    }
    this._started = true;
    if (this.system.output === 1) {
      this._mirror = new StateMirror(this.system.resync());
      this._state = this._mirror.state;
    } else {
      this._state = this.system.state;
    }
    this.system.onCommand((command) => this._onCommand(command));
    this.system.onState((state) => this._onState(state));
    for (const effect of this.system.effects) this._start(effect.id, effect.feedback, effect.request);
    return this;
  }

  /**
   * Detaches from the system and aborts every running handler. The effects stay running
   * in the system (a new runner resumes them). Idempotent.
   */
  close() {
    if (this._closed) return;
    this._closed = true;
    if (this._started && !this.system.closed) {
      this.system.onCommand(null);
      this.system.onState(null);
    }
    for (const record of this._running.values()) record.controller.abort();
    this._running.clear();
    for (const waiter of this._waiters) waiter.fail(new Error('this runner is closed'));
    this._waiters.clear();
  }

  /**
   * Resolves with the first state (the current one, or a later one) for which
   * `predicate(state)` is true; rejects with TimeoutError after `timeout` ms.
   */
  runUntil(predicate, { timeout } = {}) {
    this.start();
    if (predicate(this._state)) return Promise.resolve(this._state);
    return new Promise((resolve, reject) => {
      let timer = null;
      const waiter = {
        check: (state) => {
          let done;
          try { done = predicate(state); } catch (error) { waiter.fail(error); return; }
          if (done) { finish(); resolve(state); }
        },
        fail: (error) => { finish(); reject(error); },
      };
      const finish = () => { if (timer) clearTimeout(timer); this._waiters.delete(waiter); };
      if (timeout !== undefined) {
        timer = setTimeout(() => waiter.fail(new TimeoutError(
          `the condition was not met within ${timeout} ms; state: ${JSON.stringify(this._state)}`)), timeout);
      }
      this._waiters.add(waiter);
    });
  }

  _emit(kind, id, detail) {
    if (!this.trace) return;
    try { this.trace(kind, id, detail); } catch (error) { console.error('corelogic runner trace threw:', error); }
  }

  _onCommand(command) {
    if (this._closed) return;
    if (command.start) {
      this._start(command.start.id, command.start.feedback, command.start.request);
    } else if ('cancel' in command) {
      const record = this._running.get(command.cancel);
      if (!record) return;
      this._running.delete(command.cancel);
      this._emit('cancel', command.cancel, record.feedback);
      record.controller.abort();
    }
  }

  _onState(message) {
    if (message !== null && typeof message === 'object' && (Array.isArray(message.patch) ||
        (this.system.output === Output.PATCH && typeof message.revision === 'number' && 'state' in message))) {
      // Patch mode (a patch, or a small state sent whole): follow the changes; after a gap
      // (a patch this runner never saw), catch up once the current call has returned.
      if (!this._mirror || !this._mirror.apply(message)) {
        this._queueResync();
        return;
      }
      this._setState(this._mirror.state);
      return;
    }
    this._mirror = null;
    this._setState(message);
  }

  _queueResync() {
    if (this._resyncQueued) return;
    this._resyncQueued = true;
    queueMicrotask(() => {
      this._resyncQueued = false;
      if (this._closed || this.system.closed) return;
      const baseline = this.system.resync();
      if (this._mirror) this._mirror.reset(baseline);
      else this._mirror = new StateMirror(baseline);
      this._setState(this._mirror.state);
    });
  }

  _setState(state) {
    this._state = state;
    for (const waiter of [...this._waiters]) waiter.check(state);
  }

  _start(id, feedback, request) {
    if (this._running.has(id)) return;
    this._emit('start', id, { feedback, request });
    const handler = this._handlers.get(feedback);
    if (!handler) {
      if (!this._warned.has(feedback)) {
        this._warned.add(feedback);
        console.warn(`corelogic: no handler for feedback '${feedback}': its effects stay running`);
      }
      return;
    }
    const record = { feedback, controller: new AbortController() };
    this._running.set(id, record);
    // Never inside the library's call: the handler starts once that call has returned.
    queueMicrotask(() => this._run(id, feedback, request, handler, record));
  }

  _deliver(id, event, record) {
    if (record.controller.signal.aborted || this.system.closed) {
      this._emit('stale', id, event);
      return false;
    }
    this._emit('event', id, event);
    let delivered;
    try {
      delivered = this.system._deliverQuietly(id, event);
    } catch (error) {
      if (error instanceof HandleError) return false;
      throw error;
    }
    if (!delivered) this._emit('stale', id, event);
    return delivered && !record.controller.signal.aborted;
  }

  async _run(id, feedback, request, handler, record) {
    const { signal } = record.controller;
    const context = { id, feedback, signal, deliver: (event) => this._deliver(id, event, record) };
    try {
      if (signal.aborted) return;
      const event = await handler(request, context);
      if (event !== undefined && event !== null) this._deliver(id, event, record);
    } catch (error) {
      if (!signal.aborted) this._failed(id, feedback, request, error, record);
    } finally {
      if (this._running.get(id) === record) this._running.delete(id);
      if (!signal.aborted && !this.system.closed) {
        try {
          if (this.system._completeQuietly(id)) this._emit('complete', id);
        } catch (error) {
          console.error(`corelogic: completing effect ${id} failed:`, error);
        }
      }
    }
  }

  _failed(id, feedback, request, error, record) {
    this._emit('error', id, error);
    if (!this.onError) {
      console.error(`corelogic: effect ${id} (${feedback}) failed:`, error);
      return;
    }
    try {
      const event = this.onError(error, { id, feedback, request });
      if (event !== undefined && event !== null) this._deliver(id, event, record);
    } catch (mapped) {
      console.error(`corelogic: onError threw for effect ${id} (${feedback}):`, mapped);
    }
  }
}

export { Runner };
