/**
 * Seeded pseudo-random numbers for the snapshot generator: sfc32 seeded through splitmix32.
 * Every work gets its own stream derived from (seed, stream, index), so any range of works can be generated
 * independently and the output does not depend on how the range is split across threads.
 */

function splitmix32(state: number): () => number {
  let s = state | 0;
  return () => {
    s = (s + 0x9e3779b9) | 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
}

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number, stream = 0, index = 0) {
    const mix = splitmix32((seed * 0x2545f491) ^ Math.imul(stream + 1, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca77));
    this.a = mix();
    this.b = mix();
    this.c = mix();
    this.d = mix();
    for (let i = 0; i < 8; i++) this.next();
  }

  /** A uniform 32-bit unsigned integer. */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  float(): number {
    return this.next() / 4294967296;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.float() * n);
  }

  /** Uniform integer in [lo, hi]. */
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }

  chance(p: number): boolean {
    return this.float() < p;
  }

  /** Standard normal (Box–Muller). */
  normal(): number {
    const u = 1 - this.float();
    const v = this.float();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** Exponential with the given mean. */
  exp(mean: number): number {
    return -Math.log(1 - this.float()) * mean;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
}

/** Draws ranks 0..n-1 with probability proportional to 1/(rank+1)^s, by binary search over the CDF. */
export class Zipf {
  private readonly cdf: Float64Array;
  constructor(
    readonly n: number,
    s: number,
  ) {
    this.cdf = new Float64Array(n);
    let total = 0;
    for (let k = 0; k < n; k++) {
      total += 1 / (k + 1) ** s;
      this.cdf[k] = total;
    }
    for (let k = 0; k < n; k++) this.cdf[k]! /= total;
  }

  draw(rng: Rng): number {
    const u = rng.float();
    let lo = 0;
    let hi = this.n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cdf[mid]! < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** Draws from a fixed categorical distribution given as [value, weight] pairs. */
export class Categorical<T> {
  private readonly values: T[];
  private readonly cdf: number[];
  constructor(pairs: readonly (readonly [T, number])[]) {
    const total = pairs.reduce((s, [, w]) => s + w, 0);
    let acc = 0;
    this.values = pairs.map(([v]) => v);
    this.cdf = pairs.map(([, w]) => (acc += w / total));
  }
  draw(rng: Rng): T {
    const u = rng.float();
    for (let i = 0; i < this.cdf.length; i++) if (u < this.cdf[i]!) return this.values[i]!;
    return this.values[this.values.length - 1]!;
  }
}
