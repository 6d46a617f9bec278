import type { RequestContext } from '../../../context.js';
import type { LearnedLiftQuery } from '../../../contracts/forecasting/events/learned-lift-query.js';
import { mondayOf } from '../demand/demand-series.js';
import { checkForecastIds } from '../demand/fit-weekly-series.js';
import type { ExternalEventType } from '../../../generated/prisma/enums.js';
import {
  coveredWeekCount,
  coveredWeeks,
  learningWindow,
  MAX_LEARNING_EVENTS,
  MAX_OCCURRENCE_WEEKS,
  type PastEvent,
  readPastEvents,
  readScopeDemand,
  scopesMeet,
} from './event-occurrences.js';
import { BASELINE_REACH, MIN_OCCURRENCES, occurrenceLift, type OccurrenceLift, poolLifts, type PooledLift } from './lift-estimation.js';
import { asForecastRequest } from '../engine/engine-admission.js';
import { mapInSlices } from '../../../kernel/yielding.js';

/** Where a learned lift pools its occurrences: every event of the type, or those linked like the event (same product and location, or the same lack of one). */
export type LiftPool = 'TYPE' | 'LINK';

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;
/** How far from an event its baseline weeks may lie (BASELINE_REACH weeks and the week itself). */
const REACH_MS = (BASELINE_REACH + 1) * WEEK_MS;
const weekStartOf = (week: string) => Date.parse(`${week}T00:00:00Z`);

export const LIFT_METHOD = 'LOCAL_BASELINE_MEDIAN';

export interface LiftOccurrenceRow extends OccurrenceLift {
  eventId: string;
  name: string;
  type: ExternalEventType;
  startsAt: Date;
  endsAt: Date;
  productMasterId: string | null;
  locationId: string | null;
}

export interface LearnedLift extends PooledLift {
  type: ExternalEventType;
  pool: LiftPool;
  /** The link of a LINK pool (null: every product / location); null for TYPE. */
  productMasterId: string | null;
  locationId: string | null;
  occurrences: number;
  /** Covered history weeks over the occurrences. */
  weeks: number;
  /** At least MIN_OCCURRENCES occurrences: forecasts use it for events of the pool without a stated lift. */
  usable: boolean;
  method: typeof LIFT_METHOD;
}

const linkKey = (type: string, productMasterId: string | null, locationId: string | null) => `${type}\u0000${productMasterId ?? ''}\u0000${locationId ?? ''}`;

/**
 * The occurrences of events of these types (all types without) in the learning window (learningWindow: the
 * last MAX_HISTORY_WEEKS weeks of history before `before`), among the MAX_LEARNING_EVENTS most recent events
 * there: each past event's lift over its scope's units against a local event-free baseline
 * (lift-estimation.ts). An occurrence sharing a week with an event of another type that can reach the same
 * series is left out, as its lift cannot be told apart from that event's. Events are compared by their ends
 * (their instants as numbers), never by listing their weeks, so an event over centuries costs what a short
 * one does; only events within an occurrence's baseline reach are compared with it.
 */
async function readOccurrences(ctx: RequestContext, types: ExternalEventType[] | null, before: string | null) {
  const window = await learningWindow(ctx, before);
  if (!window) return { window, occurrences: [] as LiftOccurrenceRow[] };
  const events = await readPastEvents(ctx, window, before);
  const candidates = events.filter((e) => (!types || types.includes(e.type)) && coveredWeekCount(e) <= MAX_OCCURRENCE_WEEKS);
  const demand = await readScopeDemand(ctx, candidates.map((e) => e.id), window);
  // Each event's instants once, as numbers: the checks below run for every pair of events that meet.
  const spans = new Map(events.map((e) => [e.id, { start: e.startsAt.getTime(), end: e.endsAt.getTime() }]));
  const overlaps = (other: PastEvent, weekStart: number) => {
    const span = spans.get(other.id)!;
    return span.start < weekStart + WEEK_MS && span.end > weekStart;
  };
  const found = await mapInSlices(candidates, (event): LiftOccurrenceRow | null => {
    const units = demand.get(event.id);
    if (!units) return null;
    const covered = coveredWeeks(event);
    const recorded = covered.filter((w) => units.has(w)).map(weekStartOf);
    // Only events within the baseline's reach of this one can block or confound it.
    const span = spans.get(event.id)!;
    const meeting = events.filter((other) => {
      const o = spans.get(other.id)!;
      return o.start < span.end + REACH_MS && o.end > span.start - REACH_MS && scopesMeet(event, other);
    });
    const confounded = meeting.some((other) => other.type !== event.type && recorded.some((w) => overlaps(other, w)));
    if (confounded) return null;
    const lift = occurrenceLift({ covered, units, blocked: { has: (week) => meeting.some((other) => overlaps(other, weekStartOf(week))) } });
    return lift && { eventId: event.id, name: event.name, type: event.type, startsAt: event.startsAt, endsAt: event.endsAt, productMasterId: event.productMasterId, locationId: event.locationId, ...lift };
  });
  const occurrences = found.filter((row): row is LiftOccurrenceRow => row !== null);
  return { window, occurrences };
}

function pooled(type: ExternalEventType, pool: LiftPool, link: { productMasterId: string | null; locationId: string | null }, rows: LiftOccurrenceRow[]): LearnedLift {
  return {
    type,
    pool,
    ...link,
    ...poolLifts(rows.map((r) => r.liftPct)),
    occurrences: rows.length,
    weeks: rows.reduce((sum, r) => sum + r.weeks, 0),
    usable: rows.length >= MIN_OCCURRENCES,
    method: LIFT_METHOD,
  };
}

/** Learned lifts per type and per type × link, from the history before `before` (all of it without). */
export async function learnEventLifts(ctx: RequestContext, options: { types?: ExternalEventType[]; before?: string | null }) {
  const { window, occurrences } = await readOccurrences(ctx, options.types ?? null, options.before ?? null);
  const byType = new Map<ExternalEventType, LiftOccurrenceRow[]>();
  const byLink = new Map<string, LiftOccurrenceRow[]>();
  for (const row of occurrences) {
    byType.set(row.type, [...(byType.get(row.type) ?? []), row]);
    const key = linkKey(row.type, row.productMasterId, row.locationId);
    byLink.set(key, [...(byLink.get(key) ?? []), row]);
  }
  const lifts: LearnedLift[] = [];
  for (const [type, rows] of [...byType].sort(([x], [y]) => x.localeCompare(y))) {
    lifts.push(pooled(type, 'TYPE', { productMasterId: null, locationId: null }, rows));
    const links = [...byLink.values()].filter((r) => r[0]!.type === type);
    for (const linked of links) lifts.push(pooled(type, 'LINK', { productMasterId: linked[0]!.productMasterId, locationId: linked[0]!.locationId }, linked));
  }
  return { occurrences, lifts, window };
}

/**
 * The learned lift an event without a stated lift gets: the pool of past events linked as it is, when that
 * has MIN_OCCURRENCES; else the pool of its type, when that has; else none (it lifts nothing).
 */
export function learnedLiftOf(lifts: LearnedLift[], event: Pick<PastEvent, 'type' | 'productMasterId' | 'locationId'>): LearnedLift | null {
  const linked = lifts.find((l) => l.pool === 'LINK' && l.type === event.type && l.productMasterId === event.productMasterId && l.locationId === event.locationId);
  if (linked?.usable) return linked;
  const typed = lifts.find((l) => l.pool === 'TYPE' && l.type === event.type);
  return typed?.usable ? typed : null;
}

/**
 * What the organization's past events teach (GET /api/forecast/events/learned-lifts): per type its TYPE pool
 * and each LINK pool, and the occurrences they pool. Product and location filters keep the LINK pools and
 * occurrences of events linked to them; the TYPE pools stay, as forecasts fall back to them.
 */
export async function listLearnedLifts(ctx: RequestContext, input: LearnedLiftQuery) {
  return asForecastRequest(ctx, async () => {
    await checkForecastIds(ctx, input);
    const before = input.before ? mondayOf(input.before) : null;
    const { lifts, occurrences, window } = await learnEventLifts(ctx, { types: input.type ? [input.type] : undefined, before });
    const linked = (row: { productMasterId: string | null; locationId: string | null }) =>
      (!input.productMasterId || row.productMasterId === input.productMasterId) && (!input.locationId || row.locationId === input.locationId);
    return {
      lifts: lifts.filter((l) => l.pool === 'TYPE' || linked(l)),
      occurrences: occurrences.filter(linked),
      before,
      learnedFrom: window?.from ?? null,
      maxEvents: MAX_LEARNING_EVENTS,
      minOccurrences: MIN_OCCURRENCES,
      method: LIFT_METHOD,
    };
  });
}
