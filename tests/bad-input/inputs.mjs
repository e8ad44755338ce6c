// Builds the inputs of tests/bad-input/cases.json (see its description) for the JS layers.
const encoder = new TextEncoder();

function hexBytes(hex) {
  return Uint8Array.from(hex.match(/../g), (h) => Number.parseInt(h, 16));
}

/** An input as the pieces it is made of: strings (possibly with a lone surrogate) and bytes. */
export function pieces(input) {
  if (typeof input === 'string') return [input];
  return input.parts.map((part) => {
    if (typeof part === 'string') return part;
    if (part.hex) return hexBytes(part.hex);
    if (part.repeat !== undefined) return part.repeat.repeat(part.times);
    if (part.lines !== undefined) {
      const out = new Array(part.count);
      for (let i = 0; i < part.count; i++) out[i] = part.lines.replaceAll('{i}', String(i));
      return out.join('');
    }
    if (part.surrogate) return String.fromCharCode(Number.parseInt(part.surrogate, 16));
    throw new Error(`unknown part ${JSON.stringify(part)}`);
  });
}

/** Text for explain(): bytes are decoded as a page decodes a dropped file (UTF-8, U+FFFD). */
export function asText(input) {
  return pieces(input).map((p) => (typeof p === 'string' ? p : new TextDecoder().decode(p))).join('');
}

/** Bytes for evaluate() and for files: text is encoded as UTF-8. */
export function asBytes(input) {
  const parts = pieces(input).map((p) => (typeof p === 'string' ? encoder.encode(p) : p));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
