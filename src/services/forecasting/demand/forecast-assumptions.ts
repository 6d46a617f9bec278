import type { RequestContext } from '../../../context.js';
import { eventCoversWeek, liftFactor } from '../engine/event-lifts.js';
import { eventReaches, type ForecastEvent, liftEvent, type LiftSource, readForecastEvents } from '../events/forecast-events.js';
import { readPointOverrides } from '../overrides/forecast-overrides.js';
import { readProductCategories, type ScenarioApplication, scenarioIncludesEvent, seriesAdjustment } from '../scenarios/scenario-adjustments.js';

/**
 * The assumptions every forecast path applies on top of the statistical forecast, in one order: the
 * events that reach a series (stated lifts, or lifts learned from past events), then a scenario's
 * category, channel and global adjustments, then planners' overrides. GET /api/forecast, the channel
 * projection, the long-term forecast, the scenario comparison and the ENGINE accuracy all use these.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/** Events and product categories of a set of series over a window, read once for any number of scenarios. */
export interface AssumptionSet {
  events: ForecastEvent[];
  categories: Map<string, string | null>;
}

/**
 * Reads the events overlapping [from, to) that may reach the series (events without a stated lift get the
 * one learned from the history before `learnBefore`) and the series' product categories.
 */
export async function readAssumptions(
  ctx: RequestContext,
  series: { productMasterId: string; locationId: string }[],
  window: { from: string; to: string },
  learnBefore: string | null,
): Promise<AssumptionSet> {
  if (!series.length) return { events: [], categories: new Map() };
  const productIds = [...new Set(series.map((s) => s.productMasterId))];
  const [events, categories] = await Promise.all([
    readForecastEvents(
      ctx,
      { from: new Date(`${window.from}T00:00:00Z`), to: new Date(`${window.to}T00:00:00Z`) },
      { productIds, locationIds: [...new Set(series.map((s) => s.locationId))] },
      learnBefore,
    ),
    readProductCategories(ctx, productIds),
  ]);
  return { events, categories };
}

/** What applies to one series: the events that reach it and the scenario includes, and the scenario's adjustment (null without one). */
export function seriesAssumptions(set: AssumptionSet, scenario: ScenarioApplication | null, series: { productMasterId: string; locationId: string; channel: string }) {
  return {
    events: set.events.filter((e) => eventReaches(e, series) && scenarioIncludesEvent(scenario, e.id)),
    adjustment: scenario ? seriesAdjustment(scenario, series, set.categories) : null,
  };
}

/** NONE: no event; STATED / LEARNED: every lifting event's lift was; MIXED: some of each. */
export type PointLiftSource = 'NONE' | LiftSource | 'MIXED';

const sourceOf = (events: ForecastEvent[]): PointLiftSource => {
  const sources = new Set(events.map((e) => e.liftSource));
  return sources.size === 0 ? 'NONE' : sources.size === 1 ? [...sources][0]! : 'MIXED';
};

/** The lift of one week: the events overlapping it, their stacked factor, and the units confirmed bookings add to it. */
export function weekLift(events: ForecastEvent[], weekStart: string) {
  const covering = events.filter((e) => eventCoversWeek(liftEvent(e), weekStart));
  const booked = covering.reduce((sum, e) => sum + (e.bookedQuantity ?? 0), 0);
  return { factor: liftFactor(covering.map(liftEvent)), events: covering, source: sourceOf(covering), booked };
}

/** A point with `units` added to its forecast and every bound (a booking's quantity is known demand: the interval keeps its width). */
export function addUnits<P extends Bounds>(point: P, units: number): P {
  if (!units) return point;
  const add = (value: number) => round(value + units);
  return {
    ...point,
    forecast: add(point.forecast),
    lower: add(point.lower),
    upper: add(point.upper),
    lower95: add(point.lower95),
    upper95: add(point.upper95),
    intervals: point.intervals.map((i) => ({ level: i.level, lower: add(i.lower), upper: add(i.upper) })),
  };
}

/**
 * The lift of a calendar period (a long-term month, first and last day inclusive): the mean over its days
 * of the stacked factor of the events overlapping each day, so an event covering 10 days of a 30-day
 * month moves it by a third of its lift.
 */
export function periodLift(events: ForecastEvent[], firstDay: string, lastDay: string) {
  const start = Date.parse(`${firstDay}T00:00:00Z`);
  const days = Math.round((Date.parse(`${lastDay}T00:00:00Z`) - start) / DAY_MS) + 1;
  const touching = new Set<ForecastEvent>();
  let sum = 0;
  for (let d = 0; d < days; d++) {
    const dayStart = start + d * DAY_MS;
    const covering = events.filter((e) => e.startsAt.getTime() < dayStart + DAY_MS && e.endsAt.getTime() > dayStart);
    for (const e of covering) touching.add(e);
    sum += liftFactor(covering.map(liftEvent));
  }
  const applied = events.filter((e) => touching.has(e));
  return { factor: days ? sum / days : 1, events: applied, source: sourceOf(applied) };
}

/** The events a series' points applied, in the order read. */
export const appliedEvents = (events: ForecastEvent[], lifted: Iterable<ForecastEvent>) => {
  const set = new Set(lifted);
  return events.filter((e) => set.has(e));
};

interface Bounds {
  forecast: number;
  lower: number;
  upper: number;
  lower95: number;
  upper95: number;
  intervals: { level: number; lower: number; upper: number }[];
}

const round = (value: number) => Math.round(value * 10_000) / 10_000;

/** A point set by an override: forecast = quantity, bounds moved by the same difference (the interval keeps its width), never below zero. */
export function overridePoint<P extends Bounds>(point: P, quantity: number): P {
  const shift = quantity - point.forecast;
  const moved = (value: number) => round(Math.max(0, value + shift));
  return {
    ...point,
    forecast: round(quantity),
    lower: moved(point.lower),
    upper: moved(point.upper),
    lower95: moved(point.lower95),
    upper95: moved(point.upper95),
    intervals: point.intervals.map((i) => ({ level: i.level, lower: moved(i.lower), upper: moved(i.upper) })),
  };
}

/** The winning override per point (see readPointOverrides), keyed by overrideKey; one query for the series and weeks. */
export async function readOverrides(ctx: RequestContext, series: { productMasterId: string; locationId: string; channel: string }[], weeks: string[], scenarioId: string | null) {
  if (!series.length || !weeks.length) return new Map<string, { id: string; quantity: number }>();
  const sorted = [...weeks].sort();
  return readPointOverrides(ctx, series, { from: sorted[0]!, to: sorted.at(-1)! }, scenarioId);
}
