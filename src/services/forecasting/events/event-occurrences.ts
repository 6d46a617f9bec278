import type { RequestContext } from '../../../context.js';
import { Prisma } from '../../../generated/prisma/client.js';
import type { ExternalEventType } from '../../../generated/prisma/enums.js';
import { isoWeekStart } from '../../../kernel/iso-weeks.js';
import { eventCoversWeek } from '../engine/event-lifts.js';
import { weekAfter } from '../engine/forecast-series.js';
import { orgId } from '../../tenant.js';
import { BASELINE_REACH } from './lift-estimation.js';
import { MAX_HISTORY_WEEKS } from '../demand/demand-series.js';

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

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Learning reads at most this many events: the most recent ones overlapping the learning window (that start
 * before `before`). They are the candidate occurrences and the weeks that are no baseline; older ones are
 * not looked at. Each can meet every other, so the work grows with their square: bounded per request.
 */
export const MAX_LEARNING_EVENTS = 500;
/** An event covering more weeks than this is no occurrence (no local baseline can stand for it); it still keeps its weeks out of the others' baselines. */
export const MAX_OCCURRENCE_WEEKS = 52;

/** Monday 00:00 UTC (epoch ms) of the ISO week holding an instant. */
const mondayMs = (at: Date) => isoWeekStart(at).getTime();

/** How many weeks (Monday to Monday) the event overlaps, worked out from its ends alone. */
export function coveredWeekCount(event: Pick<PastEvent, 'startsAt' | 'endsAt'>): number {
  if (!(event.endsAt.getTime() > mondayMs(event.startsAt))) return 0;
  // The last week is the one holding the event's last instant (an end at a Monday's midnight does not touch that week).
  return Math.round((mondayMs(new Date(event.endsAt.getTime() - 1)) - mondayMs(event.startsAt)) / WEEK_MS) + 1;
}

/** Mondays of the weeks the event overlaps (the rule forecasts apply lifts by); only for events of at most MAX_OCCURRENCE_WEEKS weeks. */
export function coveredWeeks(event: Pick<PastEvent, 'startsAt' | 'endsAt'>): string[] {
  const count = Math.min(coveredWeekCount(event), MAX_OCCURRENCE_WEEKS);
  const first = day(isoWeekStart(event.startsAt));
  return Array.from({ length: count }, (_, i) => weekAfter(first, i)).filter((week) => eventCoversWeek({ startsAt: event.startsAt, endsAt: event.endsAt, liftPct: 0 }, week));
}

/** Whether two events can reach a common series: their products meet (either global or the same) and so do their locations. */
export const scopesMeet = (x: PastEvent, y: PastEvent) =>
  (x.isGlobal || y.isGlobal || x.productMasterId === y.productMasterId) && (x.isOrgWide || y.isOrgWide || x.locationId === y.locationId);

/**
 * The weeks learning looks at: the last MAX_HISTORY_WEEKS weeks of the organization's demand history before
 * `before` (all of it without), as a forecast's series; null without history.
 */
export async function learningWindow(ctx: RequestContext, before: string | null): Promise<{ from: string; to: string } | null> {
  const { _max } = await ctx.prisma.demandHistory.aggregate({
    where: { organizationId: orgId(ctx), ...(before ? { weekStart: { lt: new Date(`${before}T00:00:00Z`) } } : {}) },
    _max: { weekStart: true },
  });
  if (!_max.weekStart) return null;
  const last = day(_max.weekStart);
  return { from: weekAfter(last, 1 - MAX_HISTORY_WEEKS), to: weekAfter(last, 1) };
}

/**
 * The organization's events that overlap the learning window (or its BASELINE_REACH weeks on either side)
 * and start before `before`: the MAX_LEARNING_EVENTS most recent, oldest first. Candidates to learn from,
 * and the weeks that are no baseline.
 */
export async function readPastEvents(ctx: RequestContext, window: { from: string; to: string }, before: string | null): Promise<PastEvent[]> {
  const reach = BASELINE_REACH + 1;
  const starts = before && before < weekAfter(window.to, reach) ? before : weekAfter(window.to, reach);
  const events = await ctx.prisma.externalEvent.findMany({
    where: {
      organizationId: orgId(ctx),
      startsAt: { lt: new Date(`${starts}T00:00:00Z`) },
      endsAt: { gt: new Date(`${weekAfter(window.from, -reach)}T00:00:00Z`) },
    },
    select: { id: true, name: true, type: true, startsAt: true, endsAt: true, isGlobal: true, isOrgWide: true, productMasterId: true, locationId: true },
    orderBy: [{ startsAt: 'desc' }, { id: 'desc' }],
    take: MAX_LEARNING_EVENTS,
  });
  return events.reverse();
}

/**
 * Per event, the weekly units of its scope (every series it reaches, all channels summed) from
 * BASELINE_REACH weeks before it to BASELINE_REACH weeks after it, inside the learning window only: one
 * statement for all the events. A week no series of the scope recorded is absent (outside the history).
 */
export async function readScopeDemand(ctx: RequestContext, eventIds: string[], window: { from: string; to: string }) {
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
      AND d."weekStart" >= ${window.from}::date AND d."weekStart" < ${window.to}::date
    WHERE e."organizationId" = ${orgId(ctx)} AND e.id IN (${Prisma.join(eventIds)})
    GROUP BY e.id, d."weekStart"`;
  for (const row of rows) {
    let weeks = byEvent.get(row.event_id);
    if (!weeks) byEvent.set(row.event_id, (weeks = new Map()));
    weeks.set(day(row.week), Number(row.units));
  }
  return byEvent;
}
