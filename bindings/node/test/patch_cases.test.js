'use strict';
// Tests/hosts/patch_cases.json: the cases every host's patch applier follows, here
// StateMirror's (applyPatch).
const test = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const path = require('path');
const corelogic = require('../lib/corelogic');

const file = path.join(__dirname, '..', '..', '..', 'Tests', 'hosts', 'patch_cases.json');
const { cases } = JSON.parse(fs.readFileSync(file, 'utf8'));

for (const item of cases) {
  test(`patch case: ${item.rule}`, () => {
    const before = JSON.stringify(item.document);
    const mirror = new corelogic.StateMirror({ revision: 3, state: JSON.parse(before) });
    const message = { revision: 4, base: 3, patch: item.patch };
    if (item.error) {
      assert.throws(() => mirror.apply(message), corelogic.PatchError);
      assert.strictEqual(JSON.stringify(mirror.state), before); // exactly as it was
      assert.strictEqual(mirror.revision, 3);
    } else {
      mirror.apply(message);
      assert.deepStrictEqual(mirror.state, item.expected);
      assert.strictEqual(mirror.revision, 4);
    }
    assert.strictEqual({}.polluted, undefined); // no prototype was reached
  });
}
