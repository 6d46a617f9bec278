import { weekAfter } from '../engine/forecast-series.js';

/** Weeks searched on each side of an occurrence for baseline weeks. */
export const BASELINE_REACH = 8;
/** Nearest event-free weeks taken on each side. */
export const BASELINE_SIDE_WEEKS = 4;
/** Baseline weeks an occurrence needs (both sides together). */
export const MIN_BASELINE_WEEKS = 2;
/** Occurrences a learned lift needs before a forecast uses it. */
export const MIN_OCCURRENCES = 3;
/** Level of the distribution-free interval of the median lift. */
export const LIFT_CONFIDENCE = 0.8;

export interface OccurrenceDemand {
  /** Weeks (Mondays) the event overlaps. */
  covered: string[];
  /** Units of the event's scope per history week (absent: no history that week). */
  units: Map<string, number>;
  /** Weeks some event reaching the scope overlaps (this one included): never baseline. */
  blocked: { has(week: string): boolean };
}

export interface OccurrenceLift {
  /** Covered weeks inside the history. */
  weeks: number;
  actualUnits: number;
  /** Counterfactual units per week: the median of the baseline weeks. */
  baselineUnits: number;
  baselineWeeks: number;
  /** actual ÷ (baseline × weeks) − 1, as a fraction. */
  liftPct: number;
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/**
 * One occurrence's lift: the scope's units over the covered weeks against a local baseline, the median of
 * the nearest event-free history weeks (up to BASELINE_SIDE_WEEKS on each side, within BASELINE_REACH
 * weeks). Both sides, so a trend roughly cancels; the median, so one odd week does not move it. null when
 * no covered week is in the history, fewer than MIN_BASELINE_WEEKS baseline weeks exist, or the baseline is 0.
 */
export function occurrenceLift(demand: OccurrenceDemand): OccurrenceLift | null {
  const covered = [...new Set(demand.covered)].filter((w) => demand.units.has(w)).sort();
  if (!covered.length) return null;
  const side = (from: string, step: 1 | -1) => {
    const taken: number[] = [];
    for (let k = 1; k <= BASELINE_REACH && taken.length < BASELINE_SIDE_WEEKS; k++) {
      const week = weekAfter(from, step * k);
      const units = demand.units.get(week);
      if (units !== undefined && !demand.blocked.has(week)) taken.push(units);
    }
    return taken;
  };
  const baseline = [...side(covered[0]!, -1), ...side(covered.at(-1)!, 1)];
  if (baseline.length < MIN_BASELINE_WEEKS) return null;
  const baselineUnits = median(baseline);
  if (!(baselineUnits > 0)) return null;
  const actualUnits = covered.reduce((sum, w) => sum + demand.units.get(w)!, 0);
  return { weeks: covered.length, actualUnits, baselineUnits, baselineWeeks: baseline.length, liftPct: actualUnits / (baselineUnits * covered.length) - 1 };
}

/** P(X ≤ k) for X ~ Binomial(n, ½). */
function binomialHalfCdf(n: number, k: number) {
  let term = Math.pow(0.5, n);
  let sum = term;
  for (let i = 1; i <= k; i++) {
    term = (term * (n - i + 1)) / i;
    sum += term;
  }
  return sum;
}

export interface PooledLift {
  liftPct: number;
  /** Order statistics around the median covering it with at least LIFT_CONFIDENCE; null with too few occurrences. */
  lowerPct: number | null;
  upperPct: number | null;
  /** The interval's exact coverage (binomial), null with it. */
  confidenceLevel: number | null;
}

/**
 * Pools occurrence lifts: their median (each occurrence one vote, so one exceptional promotion does not
 * set the lift), with the distribution-free interval of a median: the k-th smallest and k-th largest
 * lift, k the largest rank whose coverage 1 − 2·P(Bin(n, ½) ≤ k − 1) is at least LIFT_CONFIDENCE.
 */
export function poolLifts(lifts: number[]): PooledLift {
  const sorted = [...lifts].sort((x, y) => x - y);
  const n = sorted.length;
  let rank = 0;
  let coverage = 0;
  for (let k = n >> 1; k >= 1; k--) {
    const c = 1 - 2 * binomialHalfCdf(n, k - 1);
    if (c >= LIFT_CONFIDENCE) {
      rank = k;
      coverage = c;
      break;
    }
  }
  return {
    liftPct: median(sorted),
    lowerPct: rank ? sorted[rank - 1]! : null,
    upperPct: rank ? sorted[n - rank]! : null,
    confidenceLevel: rank ? coverage : null,
  };
}
