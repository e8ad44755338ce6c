// An evaluation's result as the TREC worker posts it to the page. Its per-query values, one
// object per query and one more for its values, are what a structured clone is slowest at: for
// 5,000 queries and seven measures the page spent 16-22 ms reading the message, in one task.
// They travel as columns instead (the queries' ids as one text, a Float64Array per measure),
// and are made into the same objects on arrival: 8-15 ms in all.

/**
 * `result` with its perQuery ([{ query, values: { name: number } }]) as columns
 * (perQueryColumns: { queries, names, values }); `result` itself when its values are not all
 * numbers under the same names, or a query has texts (relstring): those travel as they are.
 */
export function packResult(result) {
  const perQuery = result?.perQuery;
  if (!Array.isArray(perQuery) || perQuery.length === 0) return result;
  const names = Object.keys(perQuery[0].values ?? {});
  const values = names.map(() => new Float64Array(perQuery.length));
  for (let i = 0; i < perQuery.length; i++) {
    const q = perQuery[i];
    // An id holds no line break: every line of a qrels or run file is one record.
    if (q.texts !== undefined || typeof q.query !== 'string' || q.query.includes('\n')) return result;
    const keys = Object.keys(q.values ?? {});
    if (Object.keys(q).length !== 2 || keys.length !== names.length) return result;
    for (let c = 0; c < names.length; c++) {
      const v = q.values[names[c]];
      if (keys[c] !== names[c] || typeof v !== 'number') return result;
      values[c][i] = v;
    }
  }
  const { perQuery: _, ...rest } = result;
  return { ...rest, perQueryColumns: { queries: perQuery.map((q) => q.query).join('\n'), names, values } };
}

/** The memory of packResult's columns, to be moved with the message rather than copied. */
export function movedBuffers(packed) {
  return (packed?.perQueryColumns?.values ?? []).map((column) => column.buffer);
}

/** The result packResult was given: perQuery as objects again, in the same order. */
export function unpackResult(packed) {
  if (packed?.perQueryColumns === undefined) return packed;
  const { perQueryColumns: { queries, names, values }, ...rest } = packed;
  const ids = queries.split('\n');
  // Each query's values copied from one object of the same keys: V8 gives them one shape at
  // once, where adding the keys one by one walks its transitions for each query.
  const shape = Object.fromEntries(names.map((name) => [name, 0]));
  const perQuery = new Array(ids.length);
  for (let i = 0; i < ids.length; i++) {
    const v = { ...shape };
    for (let c = 0; c < names.length; c++) v[names[c]] = values[c][i];
    perQuery[i] = { query: ids[i], values: v };
  }
  return { ...rest, perQuery };
}
