// Synthetic weekly demand for the scale benchmark: a seeded, deterministic mix of the shapes a
// catalogue has (smooth seasonal, trending, erratic, intermittent, lumpy, a few constant and short
// series), so that every run fits the same series and the candidate sets of every demand class are
// exercised in realistic proportions.
import type { WeeklySeries } from '../../src/services/forecasting/engine/types.js';

export const SCALE_SERIES = 10_000;
export const SCALE_WEEKS = 104;
/** First week of the synthetic history (a Monday). */
export const SCALE_FIRST_WEEK = '2024-01-01';

export type SyntheticKind = 'SEASONAL' | 'TRENDING' | 'ERRATIC' | 'INTERMITTENT' | 'LUMPY' | 'CONSTANT' | 'SHORT';

/** Share of each kind, in the order series are dealt (series i gets kind by i's position in a cycle of 100). */
export const SYNTHETIC_MIX: [SyntheticKind, number][] = [
  ['SEASONAL', 35],
  ['TRENDING', 15],
  ['ERRATIC', 10],
  ['INTERMITTENT', 25],
  ['LUMPY', 10],
  ['CONSTANT', 3],
  ['SHORT', 2],
];

/** mulberry32: a small seeded generator, enough for test data. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function normal(random: () => number): number {
  const u = Math.max(random(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

const kindCycle: SyntheticKind[] = SYNTHETIC_MIX.flatMap(([kind, share]) => Array.from({ length: share }, () => kind));

export function kindOf(index: number): SyntheticKind {
  return kindCycle[index % kindCycle.length]!;
}

/** Weekly values of the series with this index; whole units, never negative. */
export function syntheticValues(index: number, weeks = SCALE_WEEKS, seed = 11): number[] {
  const random = seededRandom(seed * 1_000_003 + index);
  const kind = kindOf(index);
  const base = 5 + random() * 200;
  const phase = random() * 52;
  const amplitude = 0.2 + random() * 0.5;
  const slope = (random() - 0.3) * 0.01;
  const noise = 0.05 + random() * 0.2;
  const values: number[] = [];
  for (let t = 0; t < weeks; t++) {
    const season = 1 + amplitude * Math.sin((2 * Math.PI * (t + phase)) / 52);
    let v: number;
    switch (kind) {
      case 'SEASONAL':
        v = base * season * (1 + noise * normal(random));
        break;
      case 'TRENDING':
        v = base * (1 + slope * t * 4) * (1 + noise * normal(random));
        break;
      case 'ERRATIC':
        v = base * Math.exp(0.9 * normal(random) - 0.4);
        break;
      case 'INTERMITTENT':
        v = random() < 0.25 ? Math.max(1, base / 10 * (1 + 0.3 * normal(random))) : 0;
        break;
      case 'LUMPY':
        v = random() < 0.2 ? base * Math.exp(1.1 * normal(random)) / 4 : 0;
        break;
      case 'CONSTANT':
        v = Math.round(base);
        break;
      case 'SHORT':
        v = base * (1 + noise * normal(random));
        break;
    }
    values.push(Math.max(0, Math.round(v)));
  }
  return kind === 'SHORT' ? values.slice(-(3 + Math.floor(random() * 10))) : values;
}

/** Monday of week t of the synthetic history. */
export function syntheticWeek(t: number, weeks = SCALE_WEEKS): string {
  return new Date(Date.parse(`${SCALE_FIRST_WEEK}T00:00:00Z`) + t * 7 * 86_400_000).toISOString().slice(0, 10);
}

/** The whole synthetic set as engine input; short series end with the others. */
export function syntheticSeries(count = SCALE_SERIES, weeks = SCALE_WEEKS, seed = 11): WeeklySeries[] {
  const allWeeks = Array.from({ length: weeks }, (_, t) => syntheticWeek(t, weeks));
  return Array.from({ length: count }, (_, i) => {
    const values = syntheticValues(i, weeks, seed);
    return { key: `S${i}`, values, weekStarts: allWeeks.slice(weeks - values.length) };
  });
}
