import type { RequestContext } from '../../../context.js';
import { Prisma } from '../../../generated/prisma/client.js';
import type { ExternalEventType } from '../../../generated/prisma/enums.js';
import { isoWeekStart } from '../../import/appliers/demand-history.js';
import { eventCoversWeek } from '../engine/event-lifts.js';
import { weekAfter } from '../engine/forecast-series.js';
import { orgId } from '../../tenant.js';
import { BASELINE_REACH } from './lift-estimation.js';

/** An event as learning needs it: its kind, its weeks and its link. */
export interface PastEvent {
  id: string;
  name: string;
  type: ExternalEventType;
  startsAt: Date;
  endsAt: Date;
  isGlobal: boolean;
  isOrgWide: boolean;
  productMasterId: string | null;
  locationId: string | null;
}

const day = (date: Date) => date.toISOString().slice(0, 10);

/** Mondays of the weeks the event overlaps (the rule forecasts apply lifts by). */
export function coveredWeeks(event: Pick<PastEvent, 'startsAt' | 'endsAt'>): string[] {
  const weeks: string[] = [];
  for (let week = day(isoWeekStart(event.startsAt)); Date.parse(`${week}T00:00:00Z`) <= event.endsAt.getTime(); week = weekAfter(week, 1)) {
    if (eventCoversWeek({ startsAt: event.startsAt, endsAt: event.endsAt, liftPct: 0 }, week)) weeks.push(week);
  }
  return weeks;
}

/** Whether two events can reach a common series: their products meet (either global or the same) and so do their locations. */
export const scopesMeet = (x: PastEvent, y: PastEvent) =>
  (x.isGlobal || y.isGlobal || x.productMasterId === y.productMasterId) && (x.isOrgWide || y.isOrgWide || x.locationId === y.locationId);

/**
 * The organization's events that start before `before` (every one without it), oldest first: candidates to
 * learn from, and the weeks that are no baseline.
 */
export async function readPastEvents(ctx: RequestContext, before: string | null): Promise<PastEvent[]> {
  return ctx.prisma.externalEvent.findMany({
    where: { organizationId: orgId(ctx), ...(before ? { startsAt: { lt: new Date(`${before}T00:00:00Z`) } } : {}) },
    select: { id: true, name: true, type: true, startsAt: true, endsAt: true, isGlobal: true, isOrgWide: true, productMasterId: true, locationId: true },
    orderBy: [{ startsAt: 'asc' }, { id: 'asc' }],
  });
}

/**
 * Per event, the weekly units of its scope (every series it reaches, all channels summed) from
 * BASELINE_REACH weeks before it to BASELINE_REACH weeks after it, history before `before` only: one
 * statement for all the events. A week no series of the scope recorded is absent (outside the history).
 */
export async function readScopeDemand(ctx: RequestContext, eventIds: string[], before: string | null) {
  const byEvent = new Map<string, Map<string, number>>();
  if (!eventIds.length) return byEvent;
  const reach = Prisma.raw(`'${(BASELINE_REACH + 1) * 7} days'`);
  const rows = await ctx.prisma.$queryRaw<{ event_id: string; week: Date; units: number }[]>`
    SELECT e.id AS event_id, d."weekStart" AS week, SUM(d."actualUnits")::float8 AS units
    FROM external_events e
    JOIN demand_history d ON d."organizationId" = e."organizationId"
      AND (e."isGlobal" OR d."productMasterId" = e."productMasterId")
      AND (e."isOrgWide" OR d."locationId" = e."locationId")
      AND d."weekStart" >= e."startsAt" - interval ${reach}
      AND d."weekStart" <= e."endsAt" + interval ${reach}
      ${before ? Prisma.sql`AND d."weekStart" < ${before}::date` : Prisma.empty}
    WHERE e."organizationId" = ${orgId(ctx)} AND e.id IN (${Prisma.join(eventIds)})
    GROUP BY e.id, d."weekStart"`;
  for (const row of rows) {
    let weeks = byEvent.get(row.event_id);
    if (!weeks) byEvent.set(row.event_id, (weeks = new Map()));
    weeks.set(day(row.week), Number(row.units));
  }
  return byEvent;
}
