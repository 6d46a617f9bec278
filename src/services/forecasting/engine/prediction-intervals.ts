/** Normal quantile for a central interval level in percent (two-sided), by Acklam's rational approximation. */
export function normalQuantile(p: number): number {
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const low = 0.02425;
  if (p < low) {
    const q = Math.sqrt(-2 * Math.log(p));
    return (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) / ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1);
  }
  if (p > 1 - low) return -normalQuantile(1 - p);
  const q = p - 0.5;
  const r = q * q;
  return ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) / (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1);
}

/** Split-conformal quantile: the ⌈(n+1)·level⌉-th smallest score, or null when there are too few scores. */
export function conformalQuantile(scores: number[], level: number): number | null {
  const sorted = [...scores].sort((x, y) => x - y);
  const rank = Math.ceil((sorted.length + 1) * level);
  return rank <= sorted.length ? sorted[rank - 1]! : null;
}

export interface IntervalWidths {
  source: 'CONFORMAL_BY_STEP' | 'CONFORMAL_POOLED' | 'MODEL';
  /** halfWidth[levelIndex][h] for every forecast step. */
  halfWidths: number[][];
}

/**
 * Half-widths from backtest errors (errors[k][h], one row per origin). With enough origins for the
 * highest level, each step gets the conformal quantile of its own absolute errors. Otherwise the errors
 * are pooled over steps after dividing each by its step's mean absolute error (made non-decreasing in
 * h), and the pooled quantile is scaled back by each step's MAE. Steps beyond the backtest grow by
 * √(h / backtest horizon).
 */
export function conformalWidths(errors: number[][], levels: number[], horizon: number): IntervalWidths | null {
  const steps = errors[0]?.length ?? 0;
  if (!steps) return null;
  const column = (h: number) => errors.map((row) => Math.abs(row[h]!));
  const extend = (widths: number[]) =>
    Array.from({ length: horizon }, (_, h) => (h < steps ? widths[h]! : widths[steps - 1]! * Math.sqrt((h + 1) / steps)));
  const byStep = levels.map((level) => Array.from({ length: steps }, (_, h) => conformalQuantile(column(h), level / 100)));
  if (byStep.every((row) => row.every((q) => q !== null))) {
    return { source: 'CONFORMAL_BY_STEP', halfWidths: byStep.map((row) => extend(monotone(row as number[]))) };
  }
  const stepMae = monotone(Array.from({ length: steps }, (_, h) => mean(column(h))));
  if (stepMae.every((m) => m === 0)) return { source: 'CONFORMAL_POOLED', halfWidths: levels.map(() => new Array<number>(horizon).fill(0)) };
  const floor = Math.max(...stepMae) * 1e-6;
  const scores = errors.flatMap((row) => row.map((e, h) => Math.abs(e) / Math.max(stepMae[h]!, floor)));
  const halfWidths: number[][] = [];
  for (const level of levels) {
    const q = conformalQuantile(scores, level / 100);
    if (q === null) return null;
    halfWidths.push(extend(stepMae.map((m) => q * m)));
  }
  return { source: 'CONFORMAL_POOLED', halfWidths };
}

/** Normal intervals from the spread of the history's week-to-week changes, growing with √h: for series too short to backtest. */
export function modelWidths(history: number[], levels: number[], horizon: number): IntervalWidths {
  const diffs = history.slice(1).map((v, i) => v - history[i]!);
  const spread = diffs.length ? Math.sqrt(mean(diffs.map((d) => d * d))) : Math.abs(history[0] ?? 0);
  return {
    source: 'MODEL',
    halfWidths: levels.map((level) => {
      const z = normalQuantile(0.5 + level / 200);
      return Array.from({ length: horizon }, (_, h) => z * spread * Math.sqrt(h + 1));
    }),
  };
}

function mean(xs: number[]) {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0;
}

function monotone(xs: number[]) {
  let max = 0;
  return xs.map((x) => (max = Math.max(max, x)));
}
