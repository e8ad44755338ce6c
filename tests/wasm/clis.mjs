// The two ndcg-calc programs, which must print the same bytes for the same arguments: the Node
// one (wasm/cli.mjs, over the wasm core) and the native one (build/native/ndcg-calc, built by
// scripts/build.sh native, which npm test runs first). Every command-line test runs both.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const node = fileURLToPath(new URL('../../wasm/cli.mjs', import.meta.url));
const native = fileURLToPath(new URL('../../build/native/ndcg-calc', import.meta.url));

if (!existsSync(native)) {
  throw new Error(`${native} is missing: build it with scripts/build.sh native (npm test does)`);
}

/** [{ name, command, args }]: spawn `command` with [...args, ...the arguments]. */
export const CLIS = Object.freeze([
  Object.freeze({ name: 'ndcg-calc (Node)', command: process.execPath, args: Object.freeze([node]) }),
  Object.freeze({ name: 'ndcg-calc (native)', command: native, args: Object.freeze([]) }),
]);
