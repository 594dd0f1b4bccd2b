// The golden adapter's answers (docs/golden-files.md, "The driver and the adapters"): one
// request in, one reply line out, over either binding (they have one API). Used by the
// Node.js adapter (golden_adapter.mjs), the web binding's in Node.js and its page in a
// browser (bindings/web/test), so every JavaScript host answers alike.

/** A reply function over a loaded `corelogic` (the Node.js or the web binding). */
export function goldenReplier(corelogic) {
  let system = null;
  let mirror = null;

  function batch(result) {
    if (result === corelogic.STALE) return 'stale';
    const out = { effects: result.effects, steps: result.steps, queries: result.queries || {} };
    if (result.revision !== undefined) {  // patch mode: a patch, or a small state sent whole
      mirror.apply(result);
      out.revision = result.revision;
    }
    if (result.patch === undefined) out.state = result.state;
    else Object.assign(out, { base: result.base, patch: result.patch });
    return 'ok ' + JSON.stringify(out);
  }

  function answer(command, argument, payload) {
    switch (command) {
      case 'features': return 'ok ' + JSON.stringify(corelogic.features());
      case 'create':
        system = new corelogic.System(argument, payload === 'null' ? null : corelogic.raw(payload));
        mirror = null;
        return batch(system.initialBatch);
      case 'output': {
        const baseline = system.setOutput(argument === 'patch' ? corelogic.Output.PATCH : corelogic.Output.FULL);
        mirror = argument === 'patch' ? new corelogic.StateMirror(baseline) : null;
        return 'ok ' + JSON.stringify(baseline);
      }
      case 'watch': return 'ok ' + JSON.stringify(system.watchQueries(JSON.parse(argument)));
      case 'send': return batch(system.sendJson(payload));
      case 'deliver': return batch(system.deliver(BigInt(argument), corelogic.raw(payload)));
      case 'complete': return batch(system.complete(BigInt(argument)));
      case 'query': return 'ok ' + JSON.stringify(system.query(argument));
      case 'check': return 'ok ' + JSON.stringify(system.check());
      case 'state': return 'ok ' + system.stateJson;
      case 'mirror': return mirror ? 'ok ' + JSON.stringify({ revision: mirror.revision, state: mirror.state }) : 'none';
      case 'free': system.close(); return 'ok';
      default: return `error CORELOGIC_ERR_ARG - unknown command ${command}`;
    }
  }

  return function reply(command, argument, payload) {
    try {
      return answer(command, argument, payload);
    } catch (error) {
      if (!(error instanceof corelogic.CorelogicError)) throw error;
      return `error ${error.statusName} ${error.name} ${error.libraryMessage.replace(/[\r\n]/g, ' ')}`;
    }
  };
}
