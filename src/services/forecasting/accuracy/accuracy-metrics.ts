import type { AccuracyGroup } from '../../../contracts/forecasting/accuracy/forecast-accuracy-query.js';

const round = (value: number | null) => (value === null ? null : Math.round(value * 1_000_000) / 1_000_000);

/** The grouping columns of a row: the grouped-by one is set, the others null. */
export interface AccuracyGroupKey {
  productMasterId: string | null;
  locationId: string | null;
  channel: string | null;
  method: string | null;
}

export interface AccuracyRow extends AccuracyGroupKey {
  points: number;
  /** Points whose actual is 0: MAPE skips them. */
  zeroActualPoints: number;
  /** Points of series with a MASE scale: MASE averages over them. */
  scaledPoints: number;
  actualTotal: number;
  forecastTotal: number;
  mase: number | null;
  wape: number | null;
  bias: number | null;
  mape: number | null;
}

/** The sums every metric is made from; SQL (IMPORTED) and the replay (ENGINE) both produce them. */
export interface AccuracySums {
  points: number;
  zeroActualPoints: number;
  scaledPoints: number;
  actualTotal: number;
  forecastTotal: number;
  absErrorTotal: number;
  /** Σ |F − A| / scale over the scaled points. */
  scaledErrorTotal: number;
  /** Σ |F − A| / |A| over the points with A ≠ 0. */
  percentErrorTotal: number;
}

export function metricsOf(key: AccuracyGroupKey, sums: AccuracySums): AccuracyRow {
  const { points, zeroActualPoints, scaledPoints, actualTotal, forecastTotal } = sums;
  return {
    ...key,
    points,
    zeroActualPoints,
    scaledPoints,
    actualTotal: round(actualTotal)!,
    forecastTotal: round(forecastTotal)!,
    mase: round(scaledPoints ? sums.scaledErrorTotal / scaledPoints : null),
    wape: round(actualTotal !== 0 ? sums.absErrorTotal / actualTotal : null),
    bias: round(actualTotal !== 0 ? (forecastTotal - actualTotal) / actualTotal : null),
    mape: round(points > zeroActualPoints ? sums.percentErrorTotal / (points - zeroActualPoints) : null),
  };
}

export interface MeasuredPoint {
  productMasterId: string;
  locationId: string;
  channel: string;
  method: string | null;
  actual: number;
  forecast: number;
  /** The series' MASE denominator; null where undefined. */
  scale: number | null;
}

export function groupKeyOf(point: MeasuredPoint, groupBy: AccuracyGroup): AccuracyGroupKey {
  return {
    productMasterId: groupBy === 'product' ? point.productMasterId : null,
    locationId: groupBy === 'location' ? point.locationId : null,
    channel: groupBy === 'channel' ? point.channel : null,
    method: groupBy === 'method' ? point.method : null,
  };
}

/** Every group's row, ordered by its key (as the SQL of IMPORTED orders them). */
export function aggregatePoints(points: MeasuredPoint[], groupBy: AccuracyGroup): AccuracyRow[] {
  const groups = new Map<string, { key: AccuracyGroupKey; sums: AccuracySums }>();
  for (const point of points) {
    const key = groupKeyOf(point, groupBy);
    const id = JSON.stringify(key);
    let group = groups.get(id);
    if (!group) {
      group = { key, sums: { points: 0, zeroActualPoints: 0, scaledPoints: 0, actualTotal: 0, forecastTotal: 0, absErrorTotal: 0, scaledErrorTotal: 0, percentErrorTotal: 0 } };
      groups.set(id, group);
    }
    const { sums } = group;
    const error = Math.abs(point.forecast - point.actual);
    sums.points++;
    sums.actualTotal += point.actual;
    sums.forecastTotal += point.forecast;
    sums.absErrorTotal += error;
    if (point.actual === 0) sums.zeroActualPoints++;
    else sums.percentErrorTotal += error / Math.abs(point.actual);
    if (point.scale !== null) {
      sums.scaledPoints++;
      sums.scaledErrorTotal += error / point.scale;
    }
  }
  const sortKey = (k: AccuracyGroupKey) => k.productMasterId ?? k.locationId ?? k.channel ?? k.method ?? '';
  return [...groups.values()].sort((x, y) => (sortKey(x.key) < sortKey(y.key) ? -1 : sortKey(x.key) > sortKey(y.key) ? 1 : 0)).map((g) => metricsOf(g.key, g.sums));
}
