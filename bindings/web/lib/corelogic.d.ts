// Generated from bindings/node/lib/corelogic.d.ts by bindings/web/esm.mjs: change that file.
// TypeScript declarations of the web binding (lib/corelogic.js): the Node.js binding's
// (bindings/node/lib/corelogic.d.ts) without journals and restore, with an asynchronous
// load() of the WebAssembly module. JSON values are
// `any`, as in JavaScript, unless the host names a feature's types, which typegen writes from its schema
// (`python -m corelogic.typegen FEATURE --lang typescript`; an app's package carries
// them): `new System<Search.FeatureState, Search.FeatureEvent>("search")`.

/** The C ABI version the addon was built for; a library with another one is refused. */
export declare const ABI_VERSION: number;
/** The binding's version, "MAJOR.MINOR.PATCH" (the corelogic.h its addon was built from). */
export declare const BINDING_VERSION: string;

/** Output modes of System#setOutput: whole states (the default) or RFC 6902 patches. */
export declare const Output: Readonly<{ FULL: 0; PATCH: 1 }>;

/** An effect id: a number, or a bigint beyond 2^53. */
export type EffectId = number | bigint;

/** A `start` command's payload: which effect to run, for which feedback, with which request. */
export interface Start<Request = any> {
  readonly id: number;
  readonly feedback: string;
  readonly request: Request;
}

/** An effect command: start an effect, or cancel a running one. */
export type Command<Request = any> = { readonly start: Start<Request> } | { readonly cancel: number };

/** An RFC 6902 operation of a patch-mode batch. */
export type PatchOperation =
  | { readonly op: "add" | "replace"; readonly path: string; readonly value: unknown }
  | { readonly op: "remove"; readonly path: string };

/** A state and its revision: what the next patch applies to. */
export interface Baseline<State = any> {
  readonly revision: number;
  readonly state: State;
}

/** JSON text passed to the library byte for byte (see raw()). */
export declare class RawJSON {
  constructor(text: string);
  readonly text: string;
  toString(): string;
}

/** Wraps JSON text so that send/deliver pass it to the library byte for byte. */
export declare function raw(text: string): RawJSON;

/** What one call returned: the state after its last step (or the patch to it), the commands, the step count. */
export declare class Batch<State = any, Request = any> {
  /** The state after the last step; in patch mode only when it was small enough to be sent whole. */
  readonly state: State;
  /** The commands of every step, in order. */
  readonly effects: Array<Command<Request>>;
  /** How many steps the call ran. */
  readonly steps: number;
  /** Patch mode: the revision this batch's state has. */
  readonly revision?: number;
  /** Patch mode: the revision the patch applies to. */
  readonly base?: number;
  /** Patch mode: the operations from `base` to `revision`. */
  readonly patch?: Array<PatchOperation>;
  /** The watched queries whose value changed since the previous batch. */
  readonly queries?: { readonly [name: string]: any };
  /** The library's own JSON text of the batch. */
  readonly json: string;
  /** The `start` commands' payloads. */
  readonly started: Array<Start<Request>>;
  /** The ids of the effects this batch cancels. */
  readonly cancelled: Array<number>;
  /** Always false: a Batch is not STALE. */
  readonly stale: false;
}

/** What deliver/complete return for an effect that is not running: the input was dropped. */
export declare const STALE: Readonly<{ stale: true; status: number; toString(): string }>;
export type Stale = typeof STALE;

/** One running instance of a feature. Close it with close(); after that every method throws HandleError. */
export declare class System<State = any, Event = any, Request = any> {
  /**
   * @param feature the feature's name, e.g. "search" (see features())
   * @param state the first state; null or omitted for the feature's own
   */
  constructor(feature: string, state?: State | RawJSON | null);
  readonly feature: string;
  readonly closed: boolean;
  /** The batch of the system's creation (effects the first state asks for). */
  readonly initialBatch: Batch<State, Request>;
  close(): void;
  /** Sends an event from the host. */
  send(event: Event | RawJSON): Batch<State, Request>;
  /** Sends JSON text byte for byte. */
  sendJson(text: string): Batch<State, Request>;
  /** Delivers an event produced by a running effect; STALE if it is not running. */
  deliver(effectId: EffectId, event: Event | RawJSON): Batch<State, Request> | Stale;
  /** Reports that an effect finished; STALE if it is not running. */
  complete(effectId: EffectId): Batch<State, Request> | Stale;
  readonly state: State;
  readonly stateJson: string;
  /** A state query's value. */
  query(name: string): any;
  queryJson(name: string): string;
  /** The feature's invariants that do not hold now; [] when all hold. */
  check(): Array<{ name: string; message: string }>;
  /** The running effects. */
  readonly effects: Array<Start<Request>>;
  onCommand(handler: ((command: Command<Request>) => void) | null): void;
  onState(handler: ((state: State) => void) | null): void;
  setOutput(mode: 0 | 1): Baseline<State>;
  readonly output: 0 | 1;
  resync(): Baseline<State>;
  watchQueries(names: Array<string>): { [name: string]: any };
  toString(): string;
}

/** What an effect handler gets besides its request. */
export interface EffectContext<Event = any> {
  readonly id: number;
  readonly feedback: string;
  /** Aborted when the effect is cancelled or the runner closes. */
  readonly signal: AbortSignal;
  /** Delivers an event from the effect while it runs. */
  deliver(event: Event): void;
}

export interface RunnerOptions<Event = any> {
  /** Maps a handler's error to an event to deliver (or undefined for none). */
  onError?: (error: unknown, effect: Start) => Event | undefined | null;
  trace?: (kind: string, id: number, detail: unknown) => void;
}

/** Runs a system's effects with Promise-returning handlers and feeds their results back. */
export declare class Runner<State = any, Event = any, Request = any> {
  constructor(system: System<State, Event, Request>, options?: RunnerOptions<Event>);
  readonly system: System<State, Event, Request>;
  /** Registers the handler of a feedback: `async (request, context) => event`. */
  effect(feedback: string,
         handler: (request: any, context: EffectContext<Event>) => Promise<Event | undefined | null | void> | Event | undefined | null | void): this;
  send(event: Event | RawJSON): Batch<State, Request>;
  readonly state: State;
  readonly running: Map<number, string>;
  start(): this;
  close(): void;
  runUntil(predicate: (state: State) => boolean, options?: { timeout?: number }): Promise<State>;
}

/** Loads corelogic.wasm (a URL, a Response, its bytes or a compiled module) before any other call. */
export declare function load(source: string | URL | Response | BufferSource | WebAssembly.Module): Promise<void>;
/** The library's version, "MAJOR.MINOR.PATCH". */
export declare function version(): string;
/** The loaded library's C ABI version. */
export declare function abiVersion(): number;
/** The C constant's name of a status. */
export declare function statusName(status: number): string;
/** Every feature the library runs. */
export declare function features(): Array<{
  readonly name: string;
  readonly events: Array<string>;
  readonly feedbacks: Array<{ readonly name: string; readonly kind: string }>;
  readonly queries: Array<string>;
  readonly stateVersion: number;
}>;

/** Applies an RFC 6902 patch of the library's operations to a copy of `state`. */
export declare function applyPatch<T>(state: T, patch: Array<PatchOperation>): T;

/** A copy of a system's state kept up to date from patch-mode batches. */
export declare class StateMirror<State = any> {
  constructor(baseline: Baseline<State>);
  state: State;
  revision: number;
  reset(baseline: Baseline<State>): void;
  /** Applies a patch-mode batch (a patch, or a small state sent whole); false, changing nothing, if a patch was missed (then reset from resync()). */
  apply(message: { readonly revision?: number; readonly base?: number; readonly patch?: Array<PatchOperation>; readonly state?: State }): boolean;
}

export declare const OK: number;
export declare const STALE_STATUS: number;
export declare const ERR_JSON: number;
export declare const ERR_SCHEMA: number;
export declare const ERR_NOT_FOUND: number;
export declare const ERR_HANDLE: number;
export declare const ERR_ARG: number;
export declare const ERR_IO: number;
export declare const ERR_CORRUPT: number;
export declare const ERR_NOMEM: number;

/** Base class of every error the binding throws. */
export declare class CorelogicError extends Error {
  constructor(message: string, status?: number | null);
  /** The C status code, or null for LibraryError. */
  readonly status: number | null;
  /** The C constant's name, e.g. "CORELOGIC_ERR_SCHEMA" ("" for LibraryError). */
  readonly statusName: string;
  /** The library's message alone. */
  readonly libraryMessage: string;
}
/** The addon or the library could not be loaded, or their ABI versions differ. */
export declare class LibraryError extends CorelogicError {}
export declare class JSONError extends CorelogicError {}
export declare class SchemaError extends CorelogicError {}
export declare class NotFoundError extends CorelogicError {}
export declare class HandleError extends CorelogicError {}
export declare class ArgumentError extends CorelogicError {}
export declare class StorageError extends CorelogicError {}
export declare class CorruptError extends CorelogicError {}
export declare class OutOfMemoryError extends CorelogicError {}
export declare class PatchError extends CorelogicError {}
export declare class TimeoutError extends Error {}
