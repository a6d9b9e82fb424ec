// Runs the Khronos glTF validator (the npm package pinned in tests/npm) over
// every form of every source scene: mc_corpusgen --scene-forms DIR wrote
// DIR/{gltf,gltf-separate,glb}/ and DIR/scenes.json. A scene may trip only
// the codes its manifest entry lists under gltf_validator_expected.
// usage: node gltf_validate.js NPM_DIR FORMS_DIR
'use strict';
const fs = require('fs');
const path = require('path');
const validator = require(path.join(process.argv[2], 'node_modules', 'gltf-validator'));
const dir = process.argv[3];
const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'scenes.json'), 'utf8'));

async function one(scene, form) {
    const ext = form === 'glb' ? 'glb' : 'gltf';
    const sub = path.join(dir, form);
    const file = path.join(sub, `${scene.name}.${ext}`);
    const report = await validator.validateBytes(new Uint8Array(fs.readFileSync(file)), {
        uri: file,
        maxIssues: 0,
        externalResourceFunction: (uri) => new Promise((resolve, reject) => {
            try { resolve(new Uint8Array(fs.readFileSync(path.join(sub, decodeURIComponent(uri))))); }
            catch (e) { reject(e.toString()); }
        }),
    });
    const allowed = new Set(scene.gltf_validator_expected);
    const errors = report.issues.messages.filter((m) => m.severity === 0 && !allowed.has(m.code));
    return errors.map((m) => `${scene.name} (${form}): ${m.code} ${m.pointer || ''}: ${m.message}`);
}

(async () => {
    let failed = 0, passed = 0;
    for (const scene of manifest.scenes) {
        for (const form of scene.forms.filter((f) => f !== 'obj')) {
            const errors = await one(scene, form);
            if (errors.length) { failed++; errors.slice(0, 5).forEach((e) => console.log(e)); }
            else passed++;
        }
    }
    console.log(`${passed} passed, ${failed} failed`);
    process.exit(failed ? 1 : 0);
})().catch((e) => { console.log(`error: ${e}`); process.exit(1); });
