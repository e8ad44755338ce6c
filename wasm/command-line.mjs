// What ndcg-calc prints, made by the core (ndcg/cli.hpp) for the API's `commandLine` requests,
// and the calculator methods that read its command line. Node's entry (index.mjs) gives these to
// the calculator (makeCalculator's `commandLine` and `extend`); the page's core carries no
// command line, and its bundle leaves this module out.
import { CalculatorUsageError, OutputError, isStrings, shapeEvaluation, wellFormed } from './api.mjs';

// What ndcg-calc prints for a session's last result.
function printedReport(session, commandLine) {
  return session.commandLineReport(commandLine.argv.map(wellFormed), commandLine.qrelsName, commandLine.runName, commandLine.bytes === true);
}

// The same given to commandLine.write as it is made: stderr's text, then stdout in pieces of
// about a megabyte, each awaited (a stream's backpressure), so that neither the core nor JS
// holds 100,000 queries' -q lines (100 MB) at once. What remains to return is the status.
async function writtenReport(session, { argv, qrelsName, runName, bytes, write }) {
  const asBytes = bytes === true;
  const printed = session.commandLineReportInPieces(argv.map(wellFormed), qrelsName, runName, asBytes);
  const written = async (text, stream) => {
    try {
      await write(text, stream);
    } catch (error) {
      throw new OutputError(error);
    }
  };
  if (printed.err.length > 0) await written(printed.err, 'err');
  if (printed.out.length > 0) await written(printed.out, 'out');
  for (let piece = session.commandLineReportNext(asBytes); piece !== null; piece = session.commandLineReportNext(asBytes)) {
    await written(piece, 'out');
  }
  return { status: printed.status };
}

/** The hooks makeCalculator calls for a request that carries `commandLine`. */
export const commandLineReports = {
  /**
   * Throws CalculatorUsageError unless `commandLine` is what an evaluation's (`run`: true) or a
   * comparison's report needs, before anything is read.
   */
  check(commandLine, run) {
    const named = (value) => typeof value === 'string';
    if (commandLine === null || typeof commandLine !== 'object' || !isStrings(commandLine.argv) || !named(commandLine.qrelsName) ||
        (run && !named(commandLine.runName)) || (commandLine.write !== undefined && typeof commandLine.write !== 'function')) {
      throw new CalculatorUsageError(`commandLine must be { argv: strings, qrelsName${run ? ', runName' : ''} }` +
        (run ? ', with write a function when given' : ''));
    }
  },

  /**
   * An evaluation's result with what ndcg-calc prints (result.commandLine): with `only`, { ok,
   * commandLine } without the values; with `write`, the printed text given to it (writtenReport)
   * and only the status kept.
   */
  async evaluation(session, request) {
    const { commandLine } = request;
    if (typeof commandLine.write === 'function') {
      const result = commandLine.only ? { ok: session.conclude() } : shapeEvaluation(session.result(), session, request);
      result.commandLine = await writtenReport(session, commandLine);
      return result;
    }
    if (!commandLine.only) {
      const raw = session.result();
      return shapeEvaluation(raw, session, request, printedReport(session, commandLine));
    }
    const ok = session.conclude();
    return { ok, commandLine: printedReport(session, commandLine) };
  },

  /** What `ndcg-calc compare` prints for a comparison session's runs. */
  comparison(session, commandLine) {
    return session.commandLineReport(commandLine.argv.map(wellFormed), commandLine.qrelsName);
  },
};

/** The calculator's methods for ndcg-calc's command line, given the calculator's internals (makeCalculator's `extend`). */
export function commandLineMethods({ core: currentCore }) {
  const withCommandLine = () => {
    const core = currentCore();
    if (core === null || typeof core.parseCommandLine !== 'function') {
      throw new CalculatorUsageError('this core has no command line (it is the page\'s)');
    }
    return core;
  };
  return {
    /**
     * The ndcg-calc command line's arguments, read by the core as the native program reads
     * them: { ok, error } or { ok, help, version, progress, files, measures, options: [[name,
     * value], ...], zscoresFile }. For wasm/cli.mjs.
     */
    parseCommandLine(argv) {
      if (!isStrings(argv)) {
        throw new CalculatorUsageError('parseCommandLine() takes an array of strings');
      }
      return withCommandLine().parseCommandLine(argv.map(wellFormed));
    },

    /** ndcg-calc -h's text, with the definitions of the measures named (-h -m NAME). */
    commandLineHelp(measures = []) {
      return withCommandLine().commandLineHelp(measures.map(wellFormed));
    },
  };
}
