#!/usr/bin/env node
// Prints the README's table of TREC measures from the core's catalogue, so that the table is
// the catalogue: `node scripts/measure-table.mjs` (a test checks that the README holds it).
import { createCalculator } from '../wasm/index.mjs';

export function measureTable(calc) {
  const sets = calc.measureSets();
  const inSet = (set, name) => sets.find((s) => s.name === set).measures.includes(name);
  const setNames = sets.map((s) => s.name);
  const rows = ['| trec_eval | ir_measures | in | per query | definition |', '| --- | --- | --- | --- | --- |'];
  for (const m of calc.measures()) {
    const name = !m.trecEval ? '—' : m.defaults ? `\`${m.name}.${m.defaults}\`` : `\`${m.name}\``;
    const ir = m.irMeasures ? `\`${m.irMeasures}\`` : '';
    const sets = setNames.filter((s) => inSet(s, m.name)).join(', ');
    const perQuery = m.perQuery ? 'yes' : `no (${m.summary === 'geometric' ? 'geometric mean' : m.summary === 'count' ? 'count' : 'the run tag'})`;
    rows.push(`| ${name} | ${ir} | ${sets} | ${perQuery} | ${m.definition.replaceAll('|', '\\|')} |`);
  }
  return `${rows.join('\n')}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write(measureTable(await createCalculator()));
}
