// An explanation's step table in the two forms the page reads it in. The tables and the chart
// read it a column at a time (stepColumns): the list mode asks the core for that form
// (calc.explain({ columnar: true })), so an edit of a 1,000-row ranking makes no object per rank
// for the garbage collector, where the rows' objects (a boxed number for each value) were a third
// of what an edit allocated; the TREC tab's worker asks for it too (evaluate's `columnar`), and
// the side-by-side table reads columns. Exports read rows (stepRows), made from the columns when
// they are first asked for. An explanation in rows is turned into columns once.
import { rowsOfColumns } from '../wasm/api.mjs';

const columnsOf = new WeakMap();
const rowsOf = new WeakMap();

const NUMBERS = [
  'grade', 'gain', 'discount', 'term', 'cg', 'dcg', 'idealGrade', 'idealGain', 'idealTerm', 'idcg', 'ndcg',
  'score', 'ownGain', 'roundedDcg', 'roundedIdcg', 'roundedNdcg',
];

/** The columns of an explanation from its rows: an explanation in rows, for the tables. */
function columnsOfRows(rows) {
  const columns = {
    doc: rows.map((r) => r.doc),
    idealDoc: rows.map((r) => r.idealDoc),
    judged: Uint8Array.from(rows, (r) => (r.judged ? 1 : 0)),
    repeated: Uint8Array.from(rows, (r) => (r.repeated ? 1 : 0)),
  };
  for (const name of NUMBERS) {
    if (rows.length > 0 && name in rows[0]) columns[name] = Float64Array.from(rows, (r) => r[name]);
  }
  if (rows.length > 0 && 'tie' in rows[0]) {
    columns.tieFirst = Uint32Array.from(rows, (r) => r.tie?.first ?? 0);
    columns.tieLast = Uint32Array.from(rows, (r) => r.tie?.last ?? 0);
  }
  return columns;
}

/**
 * An explanation's step table as columns: { length, idealLength, columns } (columns as
 * calc.explain gives them with `columnar: true`: `columns.dcg[i]` is rank i + 1's DCG).
 */
export function stepColumns(result) {
  let steps = columnsOf.get(result);
  if (steps === undefined) {
    steps = result.columns
      ? { length: result.length, idealLength: result.ideal.doc.length, columns: result.columns }
      : { length: result.rows.length, idealLength: result.ideal.length, columns: columnsOfRows(result.rows) };
    columnsOf.set(result, steps);
  }
  return steps;
}

/** An explanation's step table as rows, one object per rank (calc.explain's `rows`). */
export function stepRows(result) {
  if (result.rows) return result.rows;
  let rows = rowsOf.get(result);
  if (rows === undefined) {
    rows = rowsOfColumns(result);
    rowsOf.set(result, rows);
  }
  return rows;
}
