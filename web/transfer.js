// An evaluation's result as the TREC worker posts it to the page. Its per-query values come from
// the core as columns (evaluateStreams with perQueryColumns: true), each a view of one
// Float64Array whose memory moves with the message instead of being copied, and the page reads
// them as columns. As an object per query and one more for its values, a structured clone took
// the page 16-22 ms for 5,000 queries; made from columns on arrival, 56 ms for 100,000 and then
// their garbage collection, in the task that draws the results.

/** The memory of a result's per-query columns, each buffer once (they share one). */
export function movedBuffers(result) {
  const columns = Object.values(result?.perQueryColumns?.values ?? {});
  return [...new Set(columns.map((column) => column.buffer))];
}
