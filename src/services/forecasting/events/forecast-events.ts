import type { RequestContext } from '../../../context.js';
import type { ExternalEventType, StackingMode } from '../../../generated/prisma/enums.js';
import type { LiftEvent } from '../engine/event-lifts.js';
import { learnedLiftOf, learnEventLifts, type LiftPool } from './learned-lifts.js';
import { orgId } from '../../tenant.js';

/** Where an applied event's lift came from: its own value, or learned from past events (learned-lifts/). */
export type LiftSource = 'STATED' | 'LEARNED';

/** The event bounds of the interface: a learned lift is held inside them too. */
const LIFT_BOUNDS = { min: -0.99, max: 5 };

/** An event with a lift, as a forecast applies it. */
export interface ForecastEvent {
  id: string;
  name: string;
  type: ExternalEventType;
  startsAt: Date;
  endsAt: Date;
  /** As stored: a fraction (0.2 = +20 %). */
  liftPct: number;
  stackingMode: StackingMode;
  isGlobal: boolean;
  isOrgWide: boolean;
  productMasterId: string | null;
  locationId: string | null;
  liftSource: LiftSource;
  /** For a LEARNED lift: the pool it came from and how many past occurrences it has. */
  learned: { pool: LiftPool; occurrences: number } | null;
  /**
   * Units a confirmed wholesale booking adds to the week (the BOOKING events a booking keeps, docs/bookings.md): added
   * to the forecast, not a percent (liftPct 0); null for every other event.
   */
  bookedQuantity: number | null;
}

/**
 * The organization's events that overlap [from, to) and may reach one of these products and locations
 * (their own, global or org-wide ones): one query for a whole page of series. An event without a stated
 * lift gets the lift learned from past events of its kind in the history before `learnBefore` (all of it
 * when null; see learnedLiftOf), and is left out when there is none.
 */
export async function readForecastEvents(
  ctx: RequestContext,
  window: { from: Date; to: Date },
  scope: { productIds: string[]; locationIds: string[] },
  learnBefore: string | null = null,
): Promise<ForecastEvent[]> {
  const events = await ctx.prisma.externalEvent.findMany({
    where: {
      organizationId: orgId(ctx),
      startsAt: { lt: window.to },
      endsAt: { gte: window.from },
      AND: [
        { OR: [{ isGlobal: true }, { productMasterId: { in: scope.productIds } }] },
        { OR: [{ isOrgWide: true }, { locationId: { in: scope.locationIds } }] },
      ],
    },
    select: { id: true, name: true, type: true, startsAt: true, endsAt: true, liftPct: true, stackingMode: true, isGlobal: true, isOrgWide: true, productMasterId: true, locationId: true, bookedQuantity: true },
    orderBy: [{ startsAt: 'asc' }, { id: 'asc' }],
  });
  const unstated = [...new Set(events.filter((e) => e.liftPct === null && e.bookedQuantity === null).map((e) => e.type))];
  // Learning reads the history around past events: only when an event in the window needs it.
  const { lifts } = unstated.length ? await learnEventLifts(ctx, { types: unstated, before: learnBefore }) : { lifts: [] };
  return events.flatMap((e): ForecastEvent[] => {
    if (e.bookedQuantity !== null) return [{ ...e, liftPct: 0, stackingMode: 'MULTIPLICATIVE', liftSource: 'STATED', learned: null }];
    // A lift stored without a stacking mode multiplies (the events service stores one with every lift).
    if (e.liftPct !== null) return [{ ...e, liftPct: e.liftPct, stackingMode: e.stackingMode ?? 'MULTIPLICATIVE', liftSource: 'STATED', learned: null }];
    const learned = learnedLiftOf(lifts, e);
    if (!learned) return [];
    const liftPct = Math.min(LIFT_BOUNDS.max, Math.max(LIFT_BOUNDS.min, learned.liftPct));
    return [{ ...e, liftPct, stackingMode: 'MULTIPLICATIVE', liftSource: 'LEARNED', learned: { pool: learned.pool, occurrences: learned.occurrences } }];
  });
}

/** Whether an event reaches a series: global (every product) or its product, and org-wide (every location) or its location. */
export function eventReaches(event: ForecastEvent, series: { productMasterId: string; locationId: string }): boolean {
  return (event.isGlobal || event.productMasterId === series.productMasterId) && (event.isOrgWide || event.locationId === series.locationId);
}

/** The engine's form: the lift in percent. */
export const liftEvent = (event: ForecastEvent): LiftEvent => ({
  startsAt: event.startsAt,
  endsAt: event.endsAt,
  liftPct: event.liftPct * 100,
  stackingMode: event.stackingMode,
});
