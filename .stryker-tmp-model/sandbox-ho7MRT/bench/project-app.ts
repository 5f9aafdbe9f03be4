// @ts-nocheck
// A platform with one project of N tasks (argv[2]), synthesized in memory: what `npm run synth` does for
// it, without writing. Prints the synthesis time in milliseconds and the bytes of YAML produced.
import { resolveConfig } from '../constructs/model/resolve-config';
import { synthesizePlatform } from '../src/synth/synthesize';

const count = Number(process.argv[2] ?? 1000);
// Chains of three tasks, the shape of a real backlog: some tasks wait for the one before, most do not.
const tasks = Array.from({ length: count }, (_, index) => ({ id: index + 1, dependsOn: index % 3 === 0 ? [] : [index] }));
const config = resolveConfig({ file: { projects: [{ name: 'bench', repository: '5dlabs/cto-play-test', tasks }] } });
const started = process.hrtime.bigint();
const files = synthesizePlatform(config);
const milliseconds = Number(process.hrtime.bigint() - started) / 1e6;
const bytes = [...files.values()].reduce((sum, text) => sum + Buffer.byteLength(text), 0);
console.log(JSON.stringify({ tasks: count, milliseconds, bytes }));
