// Generated from bindings/node/lib/patch.js by bindings/web/esm.mjs: change that file.
/**
 * Patch output on the host side: applying the library's RFC 6902 patches to a copy of
 * the state, and StateMirror, which keeps that copy and notices a missed patch.
 *
 * The library's patches use "add", "remove" and "replace" with JSON Pointer paths
 * (RFC 6901, "~1" for "/" and "~0" for "~"); "" is the whole state and "/items/-"
 * appends. Applying returns a new state and never changes the one given: the containers
 * along each changed path are copied, once per patch however many of its operations pass
 * through them (a page of appended items copies the list once, not once per item),
 * everything else is shared, so each revision is a value of its own (what a UI compares
 * by reference), and a patch that fails leaves the state as it was.
 *
 * A small applier of its own, not an npm package: the binding has no dependencies (npm is
 * not a build input). It follows Tests/hosts/patch_cases.json, as every host's applier does.
 * Members are defined as own properties, so "__proto__" and "constructor" are ordinary
 * names: a patch never reaches a prototype.
 */

import { PatchError } from './errors.js';

function fail(message) {
  throw new PatchError(`cannot apply the patch: ${message}`);
}

function tokens(pointer) {
  if (pointer === '') return [];
  if (typeof pointer !== 'string' || pointer[0] !== '/') fail(`invalid JSON Pointer ${JSON.stringify(pointer)}`);
  if (!pointer.includes('~')) return pointer.slice(1).split('/'); // nothing to unescape
  return pointer.slice(1).split('/').map((token) => {
    if (/~(?![01])/.test(token)) fail(`invalid JSON Pointer ${JSON.stringify(pointer)}: '~' must be followed by '0' or '1'`);
    return token.replace(/~1/g, '/').replace(/~0/g, '~');
  });
}

/** Sets an own member. Only "__proto__" is an accessor of Object.prototype, where an
 * assignment would set the prototype instead; every other name is assigned (the fast way). */
function put(object, key, value) {
  if (key === '__proto__') {
    Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    object[key] = value;
  }
}

function index(array, token, allowEnd) {
  if (token === '-' && allowEnd) return array.length;
  if (!/^(0|[1-9]\d*)$/.test(token)) fail(`invalid array index ${JSON.stringify(token)}`);
  const at = Number(token);
  if (at > array.length || (!allowEnd && at === array.length)) fail(`array index ${at} out of range`);
  return at;
}

/** A shallow copy of an object. Object.assign onto a new object: V8 adds members to it
 * about ten times faster than to a spread copy. A spread copy only for an object with an
 * own "__proto__", which assigning would turn into the copy's prototype. */
function copyObject(object) {
  return Object.hasOwn(object, '__proto__') ? { ...object } : Object.assign({}, object);
}

/** A copy of `object` without its member `key`. */
function withoutMember(object, key) {
  const out = {};
  for (const name of Object.keys(object)) if (name !== key) put(out, name, object[name]);
  return out;
}

/** A copy of `container` for this patch, or the container itself when this patch made it
 * (`fresh`: the containers it made; null for a patch of one operation). */
function copy(container, fresh) {
  if (fresh === null) return Array.isArray(container) ? container.slice() : copyObject(container);
  if (fresh.has(container)) return container;
  const made = Array.isArray(container) ? container.slice() : copyObject(container);
  fresh.add(made);
  return made;
}

function isContainer(value) {
  return value !== null && typeof value === 'object';
}

/** Applies one operation to `root` (not changed unless this patch made it, `fresh` holding
 * the containers it made); returns the new root. */
function applyOperation(root, operation, fresh) {
  if (!isContainer(operation) || Array.isArray(operation)) fail('an operation is an object');
  const { op, path, value } = operation;
  if (op !== 'add' && op !== 'remove' && op !== 'replace') fail(`unsupported op ${JSON.stringify(op)}`);
  if (op !== 'remove' && !Object.hasOwn(operation, 'value')) fail(`${op}: "value" is missing`);
  const parts = tokens(path);
  if (parts.length === 0) {
    if (op === 'remove') fail('cannot remove the whole state');
    return value;
  }
  if (!isContainer(root)) fail(`no container at ${JSON.stringify(path)}`);
  const top = copy(root, fresh);
  let parent = top;
  for (let i = 0; i < parts.length - 1; i++) {
    const token = parts[i];
    const key = Array.isArray(parent) ? index(parent, token, false) : token;
    if (!Array.isArray(parent) && !Object.prototype.hasOwnProperty.call(parent, key)) fail(`no member at ${JSON.stringify(path)}`);
    const child = parent[key];
    if (!isContainer(child)) fail(`no container at ${JSON.stringify(path)}`);
    const copied = copy(child, fresh);
    if (Array.isArray(parent)) parent[key] = copied; else put(parent, key, copied);
    parent = copied;
  }
  const last = parts[parts.length - 1];
  if (Array.isArray(parent)) {
    const at = index(parent, last, op === 'add');
    if (op === 'add') parent.splice(at, 0, value);
    else if (op === 'remove') parent.splice(at, 1);
    else parent[at] = value;
  } else {
    const present = Object.prototype.hasOwnProperty.call(parent, last);
    if (op !== 'add' && !present) fail(`no member at ${JSON.stringify(path)}`);
    if (op === 'remove') delete parent[last];
    else put(parent, last, value);
  }
  return top;
}

/** "/count" -> "count": the pointers of members of the state, read once each (bounded,
 * since a state has a fixed set of members). A key taken from here is one V8 has seen,
 * which it stores a member under at once; a new slice of the pointer it looks up first. */
const memberKeys = new Map();

/** The member a pointer of one token names ("/count" -> "count"), when it has nothing to
 * unescape and is not "__proto__" (which takes the general path, see put); else undefined. */
function memberKey(pointer) {
  const known = memberKeys.get(pointer);
  if (known !== undefined) return known;
  if (typeof pointer !== 'string' || pointer.charCodeAt(0) !== 47 || pointer.indexOf('/', 1) !== -1 ||
      pointer.indexOf('~') !== -1) return undefined;
  const key = pointer.slice(1);
  if (key === '__proto__') return undefined;
  if (memberKeys.size < 1024) memberKeys.set(pointer, key);
  return key;
}

/** Applies an RFC 6902 patch (the library's subset) to `state`; returns the new state.
 * The most frequent operations, on a member of the state itself (a field replaced, an
 * optional one added or removed), are applied in line to one copy of the state: no
 * pointer split, no call per operation. */
function applyPatch(state, patch) {
  if (!Array.isArray(patch)) fail('a patch is an array of operations');
  // The containers this patch made, which its later operations change in place: made
  // when an operation first takes the general path (a patch of one operation copies each
  // container once anyway).
  let fresh = null;
  let result = state;
  let copied = null; // the copy of the state this patch's member operations change
  for (const operation of patch) {
    const key = isContainer(operation) ? memberKey(operation.path) : undefined;
    if (key !== undefined && isContainer(result) && !Array.isArray(result)) {
      const { op } = operation;
      const present = Object.hasOwn(result, key);
      const sets = (op === 'replace' && present) || op === 'add';
      if (sets && Object.hasOwn(operation, 'value')) {
        // `copied` is this patch's own: changed in place by its later operations.
        if (result !== copied) result = copied = copy(result, fresh);
        result[key] = operation.value;
        continue;
      }
      if (op === 'remove' && present) {
        // A copy without the member, rather than `delete`, after which V8 keeps the
        // object in its slow dictionary form (and every copy of it too).
        copied = withoutMember(result, key);
        if (fresh !== null) fresh.add(copied);
        result = copied;
        continue;
      }
    }
    if (fresh === null && patch.length > 1) {
      fresh = new Set();
      if (copied !== null) fresh.add(copied);
    }
    result = applyOperation(result, operation, fresh);
  }
  return result;
}

/**
 * The host's copy of a system's state in patch mode.
 *
 *     const mirror = new corelogic.StateMirror(system.setOutput(corelogic.Output.PATCH));
 *     const batch = system.send(event);
 *     if (!mirror.apply(batch)) mirror.reset(system.resync());   // a patch was missed
 *     render(mirror.state);
 */
class StateMirror {
  /** @param {{revision: number, state: object}} baseline what setOutput or resync returned */
  constructor(baseline) {
    this.reset(baseline);
  }

  /** Starts again from `baseline` ({revision, state}, from setOutput or resync). */
  reset(baseline) {
    if (!baseline || typeof baseline.revision !== 'number') fail('a baseline is {revision, state}');
    /** The revision of `state`. */
    this.revision = baseline.revision;
    /** The state at `revision`. */
    this.state = baseline.state;
  }

  /**
   * Applies a patch-mode batch or state-handler message: a patch ({revision, base,
   * patch}), or a small state sent whole ({revision, state}), which becomes the mirror's.
   * Returns false, and changes nothing, if a patch's base is not this mirror's revision (a
   * patch was missed: reset from system.resync()) or a whole state is older than the
   * mirror. A batch of 0 steps has nothing to apply and returns true.
   */
  apply(message) {
    if (!message || typeof message.revision !== 'number') fail('not a patch-mode message (is the system in patch mode?)');
    if (message.patch === undefined) {
      if (!('state' in message)) fail('not a patch-mode message: neither "patch" nor "state"');
      if (message.revision < this.revision) return false;
      this.state = message.state;
      this.revision = message.revision;
      return true;
    }
    if (!Array.isArray(message.patch)) fail('not a patch message: "patch" is not an array');
    if (message.base !== this.revision) return false;
    this.state = applyPatch(this.state, message.patch);
    this.revision = message.revision;
    return true;
  }
}

export { applyPatch, StateMirror };
