// Pseudo-random draws that are the same on every machine, for the files the benchmark and the
// native program's training generate: a linear congruential generator's high bits.

/** A function that returns the next draw (0 to 32767) of the sequence started by `seed`. */
export function draws(seed) {
  let x = seed;
  return () => ((x = (x * 1103515245 + 12345) % 2147483648) >>> 16);
}
