// Runs shared out between workers, the largest first, each to the worker with the fewest bytes so
// far: ndcg-calc compare's threads (cli.mjs) and the page's comparison workers (web/trec.js).

/** `items` in `lanes` lists, by `sizeOf(item)` bytes; a list may be empty. */
export function shareBySize(items, lanes, sizeOf) {
  const shares = Array.from({ length: lanes }, () => ({ items: [], bytes: 0 }));
  for (const item of [...items].sort((x, y) => sizeOf(y) - sizeOf(x))) {
    const least = shares.reduce((best, share) => (share.bytes < best.bytes ? share : best));
    least.items.push(item);
    least.bytes += sizeOf(item);
  }
  return shares.map((share) => share.items);
}
