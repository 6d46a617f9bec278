import type { RequestContext } from '../../context.js';
import type { StackingMode } from '../../generated/prisma/enums.js';
import type { LiftEvent } from './engine/event-lifts.js';
import { orgId } from '../tenant.js';

/** An event with a lift, as a forecast applies it. */
export interface ForecastEvent {
  id: string;
  name: string;
  startsAt: Date;
  endsAt: Date;
  /** As stored: a fraction (0.2 = +20 %). */
  liftPct: number;
  stackingMode: StackingMode;
  isGlobal: boolean;
  isOrgWide: boolean;
  productMasterId: string | null;
  locationId: string | null;
}

/**
 * The organization's events with a lift that overlap [from, to) and may reach one of these products and
 * locations (their own, global or org-wide ones): one query for a whole page of series.
 */
export async function readForecastEvents(ctx: RequestContext, window: { from: Date; to: Date }, scope: { productIds: string[]; locationIds: string[] }): Promise<ForecastEvent[]> {
  const events = await ctx.prisma.externalEvent.findMany({
    where: {
      organizationId: orgId(ctx),
      liftPct: { not: null },
      startsAt: { lt: window.to },
      endsAt: { gte: window.from },
      AND: [
        { OR: [{ isGlobal: true }, { productMasterId: { in: scope.productIds } }] },
        { OR: [{ isOrgWide: true }, { locationId: { in: scope.locationIds } }] },
      ],
    },
    select: { id: true, name: true, startsAt: true, endsAt: true, liftPct: true, stackingMode: true, isGlobal: true, isOrgWide: true, productMasterId: true, locationId: true },
    orderBy: [{ startsAt: 'asc' }, { id: 'asc' }],
  });
  // A lift stored without a stacking mode multiplies (the events service stores one with every lift).
  return events.map((e) => ({ ...e, liftPct: e.liftPct!, stackingMode: e.stackingMode ?? 'MULTIPLICATIVE' }));
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
