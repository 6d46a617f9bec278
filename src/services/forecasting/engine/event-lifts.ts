import { weekAfter } from './forecast-series.js';

export type StackingMode = 'MULTIPLICATIVE' | 'ADDITIVE';

/** An event as the engine needs it; the caller has already decided it applies to the series. */
export interface LiftEvent {
  /** First and last day the event covers (inclusive), ISO date or Date. */
  startsAt: string | Date;
  endsAt: string | Date;
  /** Lift in percent: 20 raises demand by a fifth, −10 lowers it by a tenth. */
  liftPct: number;
  /** MULTIPLICATIVE when absent. */
  stackingMode?: StackingMode | null;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const toTime = (d: string | Date) => (typeof d === 'string' ? new Date(d.length <= 10 ? `${d}T00:00:00Z` : d) : d).getTime();

/** Whether the event overlaps the week [weekStart, weekStart + 7 days). */
export function eventCoversWeek(event: LiftEvent, weekStart: string): boolean {
  const start = toTime(weekStart);
  const end = toTime(weekAfter(weekStart, 1));
  const eventStart = toTime(event.startsAt);
  // An end given as a bare date covers that whole day.
  const eventEnd = typeof event.endsAt === 'string' && event.endsAt.length <= 10 ? toTime(event.endsAt) + DAY_MS : toTime(event.endsAt);
  return eventStart < end && eventEnd > start;
}

/**
 * The factor a week's forecast is multiplied by: multiplicative events multiply (1 + l₁)(1 + l₂)…,
 * additive events add their lifts to one term (1 + a₁ + a₂ + …), and the two parts multiply. Never
 * below zero.
 */
export function liftFactor(events: LiftEvent[]): number {
  let multiplicative = 1;
  let additive = 0;
  for (const event of events) {
    const lift = event.liftPct / 100;
    if (event.stackingMode === 'ADDITIVE') additive += lift;
    else multiplicative *= 1 + lift;
  }
  return Math.max(0, multiplicative * (1 + additive));
}

/** Applies each week's overlapping events to a point and its bounds. */
export function applyEventLifts<P extends { periodStart: string; forecast: number; intervals: { level: number; lower: number; upper: number }[] }>(
  points: P[],
  events: LiftEvent[],
): P[] {
  return points.map((point) => {
    const factor = liftFactor(events.filter((e) => eventCoversWeek(e, point.periodStart)));
    if (factor === 1) return point;
    return {
      ...point,
      forecast: point.forecast * factor,
      intervals: point.intervals.map((i) => ({ ...i, lower: i.lower * factor, upper: i.upper * factor })),
    };
  });
}
