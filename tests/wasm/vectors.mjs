// Reads tests/vectors/*.json, the cases shared with the doctest and browser suites.
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

export const VECTORS_DIR = fileURLToPath(new URL('../vectors/', import.meta.url));

export function loadVectorCases() {
  return readdirSync(VECTORS_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .flatMap((file) =>
      // presets.json has its own tests and no "cases".
      (JSON.parse(readFileSync(join(VECTORS_DIR, file), 'utf8')).cases ?? []).map((c) => ({ file, ...c })));
}

/** Rounds half away from zero, as the core's round_to and a person rounding by hand. */
export function roundTo(value, decimals) {
  const scale = 10 ** decimals;
  return (Math.sign(value) * Math.round(Math.abs(value) * scale)) / scale;
}
