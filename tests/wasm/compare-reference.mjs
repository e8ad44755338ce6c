// An independent computation of the comparison's statistics, written plainly from their
// definitions to check the core's (ndcg/compare.hpp) on the same per-query values: nothing here
// is shared with the C++ but the documented conventions (SplitMix64 from the seed, one draw per
// 64 queries for a sign assignment and one per query for a resample, the tolerance for ties).
//   * t: the p-value integrates Student's density numerically (Simpson's rule), with Γ of whole
//     and half-whole numbers computed exactly, instead of the core's incomplete beta function;
//   * randomization: every sign assignment enumerated as a bit mask (not in Gray-code order),
//     or the same random draws;
//   * Wilcoxon: the 2^n assignments enumerated for n <= 20, a product of generating polynomials
//     up to 50, the normal approximation beyond;
//   * bootstrap: the same draws, the quantiles interpolated as numpy's default.

const MASK = (1n << 64n) - 1n;

export function splitmix64(seed) {
  let state = BigInt.asUintN(64, BigInt(seed));
  return () => {
    state = (state + 0x9e3779b97f4a7c15n) & MASK;
    let z = state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK;
    return z ^ (z >> 31n);
  };
}

/** 1e-12 × the largest |value| (at least 1): differences closer than this are equal. */
export function tolerance(values) {
  return 1e-12 * Math.max(1, ...values.map(Math.abs));
}

const mean = (xs) => xs.reduce((s, x) => s + x, 0) / xs.length;

/** Γ(x) for x a whole or half-whole number > 0. */
function gamma(x) {
  if (Number.isInteger(x)) {
    let g = 1;
    for (let k = 2; k < x; k += 1) g *= k;
    return g;
  }
  let g = Math.sqrt(Math.PI);
  for (let k = 0.5; k < x; k += 1) g *= k;
  return g;
}

/** P(|T| >= |t|), T Student's t with df degrees of freedom, by Simpson's rule over [0, |t|]. */
export function tTwoSided(t, df) {
  const c = gamma((df + 1) / 2) / (Math.sqrt(df * Math.PI) * gamma(df / 2));
  const density = (x) => c * (1 + (x * x) / df) ** (-(df + 1) / 2);
  const a = Math.abs(t);
  const steps = 200000;
  const h = a / steps;
  let sum = density(0) + density(a);
  for (let i = 1; i < steps; i += 1) sum += density(i * h) * (i % 2 === 1 ? 4 : 2);
  return Math.max(0, 1 - 2 * (sum * h) / 3);
}

function erfc(x) {
  // Abramowitz and Stegun 7.1.26 is not precise enough; a continued fraction for large x and
  // the Taylor series for small.
  if (x < 3) {
    let term = x;
    let sum = x;
    for (let n = 1; n < 200; n += 1) {
      term *= (-x * x) / n;
      sum += term / (2 * n + 1);
    }
    return 1 - (2 / Math.sqrt(Math.PI)) * sum;
  }
  let f = 0;
  for (let n = 60; n >= 1; n -= 1) f = n / 2 / (x + f);
  return Math.exp(-x * x) / Math.sqrt(Math.PI) / (x + f);
}

export function pairedT(d, tol) {
  const n = d.length;
  const m = mean(d);
  const sd = Math.sqrt(d.reduce((s, x) => s + (x - m) ** 2, 0) / (n - 1));
  if (sd <= tol) return { statistic: Math.abs(m) <= tol ? 0 : Math.sign(m) * Infinity, p: Math.abs(m) <= tol ? 1 : 0 };
  const t = m / (sd / Math.sqrt(n));
  return { statistic: t, p: tTwoSided(t, n - 1), df: n - 1 };
}

export function randomization(d, tol, permutations, seed) {
  const n = d.length;
  const observed = d.reduce((s, x) => s + x, 0);
  const spread = d.reduce((s, x) => s + Math.abs(x), 0);
  const threshold = Math.abs(observed) - (tol + 1e-10 * spread);
  if (n <= 62 && 2 ** n <= permutations) {
    let extreme = 0;
    for (let mask = 0; mask < 2 ** n; mask += 1) {
      let sum = 0;
      for (let i = 0; i < n; i += 1) sum += Math.floor(mask / 2 ** i) % 2 === 1 ? -d[i] : d[i];
      if (Math.abs(sum) >= threshold) extreme += 1;
    }
    return { statistic: observed / n, p: extreme / 2 ** n, exact: true };
  }
  const next = splitmix64(seed);
  let extreme = 0;
  for (let s = 0; s < permutations; s += 1) {
    let sum = 0;
    for (let w = 0; w * 64 < n; w += 1) {
      const bits = next();
      for (let i = w * 64; i < Math.min(n, w * 64 + 64); i += 1) {
        sum += (bits >> BigInt(i - w * 64)) & 1n ? -d[i] : d[i];
      }
    }
    if (Math.abs(sum) >= threshold) extreme += 1;
  }
  return { statistic: observed / n, p: (extreme + 1) / (permutations + 1), exact: false };
}

export function wilcoxon(d, tol) {
  const nonzero = d.filter((x) => Math.abs(x) > tol).sort((x, y) => Math.abs(x) - Math.abs(y));
  const n = nonzero.length;
  if (n === 0) return { statistic: 0, p: 1 };
  const ranks = [];
  let ties = 0;
  for (let i = 0; i < n;) {
    let j = i + 1;
    while (j < n && Math.abs(nonzero[j]) - Math.abs(nonzero[j - 1]) <= tol) j += 1;
    for (let k = i; k < j; k += 1) ranks.push((i + 1 + j) / 2);
    ties += (j - i) ** 3 - (j - i);
    i = j;
  }
  const w = nonzero.reduce((s, x, i) => s + (x > 0 ? ranks[i] : 0), 0);
  if (n <= 20) {
    let below = 0;
    let above = 0;
    for (let mask = 0; mask < 2 ** n; mask += 1) {
      let sum = 0;
      for (let i = 0; i < n; i += 1) if (Math.floor(mask / 2 ** i) % 2 === 1) sum += ranks[i];
      if (sum <= w + 1e-9) below += 1;
      if (sum >= w - 1e-9) above += 1;
    }
    return { statistic: w, p: Math.min(1, (2 * Math.min(below, above)) / 2 ** n), exact: true };
  }
  if (n <= 50) {
    // The generating function Π (1 + x^(2 r_i)) as a Map from exponent to count.
    let counts = new Map([[0, 1]]);
    for (const r of ranks) {
      const next = new Map(counts);
      for (const [e, c] of counts) next.set(e + 2 * r, (next.get(e + 2 * r) ?? 0) + c);
      counts = next;
    }
    let below = 0;
    let above = 0;
    for (const [e, c] of counts) {
      if (e <= 2 * w + 1e-9) below += c;
      if (e >= 2 * w - 1e-9) above += c;
    }
    return { statistic: w, p: Math.min(1, (2 * Math.min(below, above)) / 2 ** n), exact: true };
  }
  const expected = (n * (n + 1)) / 4;
  const variance = (n * (n + 1) * (2 * n + 1)) / 24 - ties / 48;
  const gap = w - expected;
  const z = (gap - Math.sign(gap) * 0.5) / Math.sqrt(variance);
  return { statistic: w, p: erfc(Math.abs(z) / Math.SQRT2), z, exact: false };
}

export function bootstrap(d, tol, resamples, seed, alpha) {
  const n = d.length;
  const m = mean(d);
  const next = splitmix64(seed);
  const means = [];
  let extreme = 0;
  for (let s = 0; s < resamples; s += 1) {
    let sum = 0;
    // Two indices a draw: floor(h · n / 2^32) for its low 32 bits h, then its high 32 bits.
    let draw = 0n;
    for (let i = 0; i < n; i += 1) {
      if (i % 2 === 0) draw = next();
      const h = i % 2 === 0 ? draw & 0xffffffffn : draw >> 32n;
      sum += d[Number((h * BigInt(n)) >> 32n)];
    }
    const resampled = sum / n;
    means.push(resampled);
    if (Math.abs(resampled - m) >= Math.abs(m) - tol) extreme += 1;
  }
  means.sort((x, y) => x - y);
  const quantile = (q) => {
    const h = q * (resamples - 1);
    const lo = Math.floor(h);
    const hi = Math.min(lo + 1, resamples - 1);
    return means[lo] + (h - lo) * (means[hi] - means[lo]);
  };
  return { statistic: m, p: (extreme + 1) / (resamples + 1), low: quantile(alpha / 2), high: quantile(1 - alpha / 2) };
}

export function holm(ps) {
  const order = ps.map((p, i) => [p, i]).sort((x, y) => x[0] - y[0]);
  const out = [...ps];
  let running = 0;
  order.forEach(([p, i], k) => {
    running = Math.max(running, Math.min(1, (order.length - k) * p));
    out[i] = running;
  });
  return out;
}

export function benjaminiHochberg(ps) {
  const order = ps.map((p, i) => [p, i]).sort((x, y) => x[0] - y[0]);
  const out = [...ps];
  let running = 1;
  for (let k = order.length - 1; k >= 0; k -= 1) {
    running = Math.min(running, Math.min(1, (order.length / (k + 1)) * order[k][0]));
    out[order[k][1]] = running;
  }
  return out;
}
