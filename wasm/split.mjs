// One run read by two instances of the core side by side (ndcg-calc's threads, wasm/cli.mjs):
// the calculator methods that split it, join the parts, and find where to split. Node's entry
// (index.mjs) adds them to the calculator; the page does not split a run, and its core and
// bundle leave them out. The core does the work (trec.hpp's Session::absorb): these feed it.
import { CalculatorUsageError, OutputError, chunkFeeder, feedAll, intoBuffer, sessionArguments } from './api.mjs';

const needsNode = (what) => new CalculatorUsageError(`${what} needs Node's core (the page's does not split runs)`);

/** The methods, given the calculator's internals (see makeCalculator's `extend`). */
export function splitMethods({ core: currentCore, calculator, unavailable, closeSession, printing, conclude }) {
  const splitting = () => {
    const core = currentCore();
    return core !== null && typeof core.queryBoundary === 'function' ? core : null;
  };
  // `samples`, when given: { first, later }, lines sampled from the two parts (Uint8Arrays, see
  // the request's doc): the session keeps the judgments of its own part's queries only.
  const keepPart = (session, samples, later) => {
    if (samples === undefined || samples === null) return;
    const { first, later: second } = samples;
    if (!(first instanceof Uint8Array) || !(second instanceof Uint8Array)) {
      throw new CalculatorUsageError('samples must be { first, later }: Uint8Arrays of whole lines of the run\'s two parts');
    }
    session.keepPartQueries(first, second, later);
  };

  return {
    /**
     * The later part of a run split between two instances of the core, read here: the qrels,
     * then the run's chunks from a line where a query starts (queryBoundary), starting at byte
     * `firstByte` of the whole run (query spans, when asked for, are the whole run's). That line
     * is numbered `firstLine` (or a promise of it, awaited once the qrels are read); without one
     * its number is not known, and the part then joins only when nothing it says names a line,
     * as for a run without errors (else the first part's instance reads the whole run). Resolves
     * { packed }: the part as bytes for the first part's evaluateSplit(), or null when it cannot
     * be joined (its queries need regrouping, the options keep one instance, or reading failed:
     * the first part's instance then reads the whole run, and reports what fails). `samples`,
     * optional: { first, later }, whole lines sampled from the run's two parts in file order
     * (`first` from its first line on, `later` from the part's first line on, ending with the
     * run's last line), given alike to both parts: each then keeps the judgments of its own
     * queries only, as the samples' order tells them, and a part that meets another query is
     * not joined (the whole run is read again).
     */
    async evaluateLaterPart(request) {
      const { qrels, run, firstLine, firstByte, onProgress, samples } = request ?? {};
      if (typeof qrels !== 'function' || typeof run !== 'function') {
        throw new CalculatorUsageError('evaluateLaterPart() takes functions { qrels, run } that return chunks');
      }
      if (!Number.isSafeInteger(firstByte) || firstByte < 1) {
        throw new CalculatorUsageError('evaluateLaterPart(): firstByte, the offset of the part\'s first byte in the whole run, must be a whole number ≥ 1');
      }
      const args = sessionArguments(request);
      if (currentCore() === null) return { packed: null };
      const core = splitting();
      if (core === null) throw needsNode('evaluateLaterPart()');
      let session;
      try {
        session = new core.TrecSession(...args);
        if (!session.canSplit()) return { packed: null };
        keepPart(session, samples, true);
        await feedAll(qrels, chunkFeeder(core, session, 'feedQrelsBuffer'), 'qrels');
        session.finishQrels();
        const line = await firstLine;
        if (line === undefined) {
          session.continueRunAtByte(firstByte);
        } else {
          if (!Number.isInteger(line) || line < 1) throw new CalculatorUsageError('evaluateLaterPart(): firstLine, when given, must be a whole number ≥ 1');
          session.continueRun(line, firstByte);
        }
        await feedAll(run, chunkFeeder(core, session, 'feedRunBuffer'), 'run', (bytes) => onProgress?.({ file: 'run', bytes }));
        return { packed: session.finishRun() ? null : session.packPart() };
      } catch (error) {
        if (error instanceof CalculatorUsageError) throw error;
        return { packed: null };
      } finally {
        if (session) closeSession(session);
      }
    },

    /**
     * evaluateStreams() for a run split between two instances: `run` gives its first part (up to
     * a line where a query starts), `later` the other part as evaluateLaterPart() packed it (or a
     * promise of it; null: it could not be), `whole` the whole run, read here when the parts
     * cannot be joined (a run not grouped by query). The result, diagnostics and commandLine
     * included, is the one reading the whole run gives. `samples`: as evaluateLaterPart's.
     */
    async evaluateSplit(request) {
      const { qrels, run, later, whole, onProgress, samples } = request ?? {};
      if (typeof qrels !== 'function' || typeof run !== 'function' || typeof whole !== 'function') {
        throw new CalculatorUsageError('evaluateSplit() takes functions { qrels, run, whole } and the later part');
      }
      const args = sessionArguments(request);
      printing(request);
      if (currentCore() === null) return unavailable('run');
      const core = splitting();
      if (core === null) throw needsNode('evaluateSplit()');
      const readWhole = () => calculator().evaluateStreams({ ...request, run: whole });
      let session;
      try {
        session = new core.TrecSession(...args);
        if (!session.canSplit()) return readWhole();
        keepPart(session, samples, false);
        await feedAll(qrels, chunkFeeder(core, session, 'feedQrelsBuffer'), 'qrels', (bytes) => onProgress?.({ file: 'qrels', bytes }));
        session.finishQrels();
        await feedAll(run, chunkFeeder(core, session, 'feedRunBuffer'), 'run', (bytes) => onProgress?.({ file: 'run', bytes }));
        const packed = session.finishRun() ? null : await later;
        if (!(packed instanceof Uint8Array)) return readWhole();
        if (!session.absorbPart(intoBuffer(core, session, packed))) return readWhole();
        return await conclude(session, request);  // awaited: it may write, with the session open
      } catch (error) {
        if (error instanceof CalculatorUsageError || error instanceof OutputError) throw error;
        // Reading a part failed, or the core: reading the whole run says which, as it says it.
        if (session) closeSession(session);
        session = null;
        return readWhole();
      } finally {
        if (session) closeSession(session);
      }
    },

    /**
     * Where, in `window` (bytes of a run from any offset, starting anywhere in a line), a line
     * starts whose query differs from the line before's: its offset in the window, or null.
     */
    queryBoundary(window) {
      if (!(window instanceof Uint8Array)) throw new CalculatorUsageError('queryBoundary() takes a Uint8Array');
      if (currentCore() === null) return null;
      const core = splitting();
      if (core === null) throw needsNode('queryBoundary()');
      const at = core.queryBoundary(window);
      return at < 0 ? null : at;
    },
  };
}
