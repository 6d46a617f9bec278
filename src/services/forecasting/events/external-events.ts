import type { z } from 'zod';
import type { eventValue as value, externalEventCreate as createSchema, externalEventListQuery as listSchema, externalEventUpdate as updateSchema } from '../../../contracts/forecasting/events/external-event.js';
import type { RequestContext } from '../../../context.js';
import { DomainError, notFound, validationError, type FieldErrors } from '../../../kernel/errors.js';
import { dateTimeOf, MAX_EVENT_SPAN_DAYS, MAX_WINDOW_DAYS, spanRefusal } from '../../../kernel/input-limits.js';
import { checkForecastIds } from '../demand/fit-weekly-series.js';
import type { Prisma } from '../../../generated/prisma/client.js';
import { StackingMode } from '../../../generated/prisma/enums.js';
import { type ListWindow, orgId } from '../../tenant.js';
import { inTransaction } from '../../../db/transactions.js';

/** Prisma query fragment from a Pothos resolver (select or include); empty for plain service calls. */
type Query = { select?: object; include?: object };

const DAY_MS = 24 * 60 * 60 * 1000;
/** The documented listing window: today through today plus 90 days. */
const DEFAULT_WINDOW_DAYS = 90;

/** The inputs as their contracts output them (parsed once, where they come in). */
export type CreateExternalEventInput = z.output<typeof createSchema>;
export type UpdateExternalEventInput = z.output<typeof updateSchema>;

export type ExternalEventListArgs = z.output<typeof listSchema>;

/** The `value` object of the interface, as stored in three columns. */
export interface ExternalEventValue {
  liftPct: number | null;
  stackingMode: StackingMode | null;
  description: string | null;
}

/** null when the event carries no value at all. */
export function eventValue(row: { liftPct: number | null; stackingMode: StackingMode | null; valueDescription: string | null }): ExternalEventValue | null {
  if (row.liftPct === null && row.stackingMode === null && row.valueDescription === null) return null;
  return { liftPct: row.liftPct, stackingMode: row.stackingMode, description: row.valueDescription };
}

/** A partial `value` over the stored one: the fields it names change, the others stay. */
function mergedValue(current: { liftPct: number | null; stackingMode: StackingMode | null; valueDescription: string | null }, patch: NonNullable<z.output<typeof value>>) {
  return {
    liftPct: patch.liftPct === undefined ? current.liftPct : patch.liftPct,
    stackingMode: patch.stackingMode === undefined ? current.stackingMode : patch.stackingMode,
    description: patch.description === undefined ? current.valueDescription : patch.description,
  };
}

function valueColumns(input: z.output<typeof value>) {
  if (!input || (input.liftPct == null && input.stackingMode == null && input.description == null)) {
    return { liftPct: null, stackingMode: null, valueDescription: null };
  }
  return {
    liftPct: input.liftPct ?? null,
    // A lift with no stacking mode multiplies, the usual way event lifts combine.
    stackingMode: input.stackingMode ?? (input.liftPct != null ? StackingMode.MULTIPLICATIVE : null),
    valueDescription: input.description ?? null,
  };
}

function startOfTodayUtc(now = new Date()) {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/** A window end as the contract leaves it (checked text), as an instant. */
const instantOf = (text: string | undefined) => (text === undefined ? undefined : (dateTimeOf(text) ?? undefined));

/** The listing window: from defaults to the start of today (UTC), to to from plus 90 days. */
export function eventWindow(from?: Date | null, to?: Date | null) {
  const start = from ?? startOfTodayUtc();
  const end = to ?? new Date(start.getTime() + DEFAULT_WINDOW_DAYS * DAY_MS);
  if (end < start) throw validationError({ to: ['Must not be before from'] });
  // Like every query window, bounded when the caller names both ends.
  const tooLong = from && to ? spanRefusal(start, end, MAX_WINDOW_DAYS, 'from') : null;
  if (tooLong) throw validationError({ to: [tooLong] });
  return { from: start, to: end };
}

/**
 * Events overlapping [from, to], soonest first. A product filter keeps that product's events and
 * the global ones (no product); a location filter keeps that location's events and the org-wide
 * ones (no location). includeGlobal / includeOrgWide = false drop those broad events. A product or
 * location filter that is not the organization's is 404, as on every other forecasting path.
 */
export async function listExternalEvents(ctx: RequestContext, args: ExternalEventListArgs, query: Query = {}) {
  return ctx.prisma.externalEvent.findMany({ ...query, where: await eventListWhere(ctx, args), orderBy: EVENT_ORDER });
}

/** A window of the events listExternalEvents answers, in its order, with how many there are in all. */
export async function externalEventWindow(ctx: RequestContext, args: ExternalEventListArgs, window: ListWindow, query: Query = {}) {
  const where = await eventListWhere(ctx, args);
  const [total, items] = await Promise.all([
    ctx.prisma.externalEvent.count({ where }),
    window.take ? ctx.prisma.externalEvent.findMany({ ...query, where, orderBy: EVENT_ORDER, skip: window.skip, take: window.take }) : [],
  ]);
  return { items, total };
}

const EVENT_ORDER: Prisma.ExternalEventOrderByWithRelationInput[] = [{ startsAt: 'asc' }, { id: 'asc' }];

async function eventListWhere(ctx: RequestContext, args: ExternalEventListArgs): Promise<Prisma.ExternalEventWhereInput> {
  const window = eventWindow(instantOf(args.from), instantOf(args.to));
  await checkForecastIds(ctx, { productMasterId: args.productMasterId, locationId: args.locationId });
  const and: Prisma.ExternalEventWhereInput[] = [
    { startsAt: { lte: window.to } },
    { endsAt: { gte: window.from } },
  ];
  if (args.type) and.push({ type: args.type });
  if (args.productMasterId) and.push({ OR: [{ productMasterId: args.productMasterId }, { isGlobal: true }] });
  if (args.locationId) and.push({ OR: [{ locationId: args.locationId }, { isOrgWide: true }] });
  if (args.includeGlobal === false) and.push({ isGlobal: false });
  if (args.includeOrgWide === false) and.push({ isOrgWide: false });
  return { organizationId: orgId(ctx), AND: and };
}

export async function getExternalEvent(ctx: RequestContext, eventId: string, query: Query = {}) {
  const db = ctx.prisma;
  const event = await db.externalEvent.findFirst({ ...query, where: { id: eventId, organizationId: orgId(ctx) } });
  if (!event) throw notFound('Event');
  return event;
}

/** A confirmed booking's BOOKING event follows its booking (docs/bookings.md): changed or removed only by moving the booking. */
function refuseBookingEvent(event: { bookingLineId?: string | null }) {
  if (event.bookingLineId) throw new DomainError('INVALID_STATE', 'This event belongs to a confirmed wholesale booking: fulfil or cancel the booking instead');
}

interface Scope {
  startsAt: Date;
  endsAt: Date;
  productMasterId: string | null;
  locationId: string | null;
  isGlobal?: boolean | null;
  isOrgWide?: boolean | null;
}

/**
 * Checks the rules that span fields and the links, and returns the flags to store. The flags follow
 * the links: isGlobal = no product (every product), isOrgWide = no location (every location); a
 * flag sent that contradicts its link is refused rather than stored.
 */
async function checkScope(ctx: RequestContext, scope: Scope) {
  const db = ctx.prisma;
  const details: FieldErrors = {};
  if (scope.endsAt < scope.startsAt) details.endsAt = ['Must not be before startsAt'];
  // Forecasts and learned lifts walk an event's weeks: a span from one end of the accepted years to the other is refused.
  const tooLong = spanRefusal(scope.startsAt, scope.endsAt, MAX_EVENT_SPAN_DAYS, 'startsAt');
  if (tooLong) details.endsAt = [tooLong];
  const isGlobal = !scope.productMasterId;
  const isOrgWide = !scope.locationId;
  if (scope.isGlobal != null && scope.isGlobal !== isGlobal) {
    details.isGlobal = [isGlobal ? 'Must be true when no productMasterId is given' : 'Must be false when productMasterId is given'];
  }
  if (scope.isOrgWide != null && scope.isOrgWide !== isOrgWide) {
    details.isOrgWide = [isOrgWide ? 'Must be true when no locationId is given' : 'Must be false when locationId is given'];
  }
  const organizationId = orgId(ctx);
  const [product, location] = await Promise.all([
    scope.productMasterId ? db.productMaster.count({ where: { id: scope.productMasterId, organizationId } }) : 1,
    scope.locationId ? db.location.count({ where: { id: scope.locationId, organizationId } }) : 1,
  ]);
  if (!product) details.productMasterId = ['Product not found'];
  if (!location) details.locationId = ['Location not found'];
  if (Object.keys(details).length) throw validationError(details);
  return { isGlobal, isOrgWide };
}

export async function createExternalEvent(ctx: RequestContext, input: CreateExternalEventInput, query: Query = {}) {
  const productMasterId = input.productMasterId ?? null;
  const locationId = input.locationId ?? null;
  const flags = await checkScope(ctx, { ...input, productMasterId, locationId });
  return ctx.prisma.externalEvent.create({
    ...query,
    data: {
      organizationId: orgId(ctx),
      name: input.name,
      type: input.type,
      startsAt: input.startsAt,
      endsAt: input.endsAt,
      ...valueColumns(input.value),
      productMasterId,
      locationId,
      ...flags,
    },
  });
}

/** Changes the fields given, within `value` too (its absent fields stay); null clears value, product or location. */
export async function updateExternalEvent(ctx: RequestContext, eventId: string, input: UpdateExternalEventInput, query: Query = {}) {
  return inTransaction(ctx, async (ctx) => {
    const tx = ctx.prisma;
    const current = await getExternalEvent(ctx, eventId, {});
    refuseBookingEvent(current);
    const productMasterId = input.productMasterId === undefined ? current.productMasterId : input.productMasterId;
    const locationId = input.locationId === undefined ? current.locationId : input.locationId;
    const flags = await checkScope(ctx, {
      startsAt: input.startsAt ?? current.startsAt,
      endsAt: input.endsAt ?? current.endsAt,
      productMasterId,
      locationId,
      isGlobal: input.isGlobal,
      isOrgWide: input.isOrgWide,
    });
    await tx.externalEvent.updateMany({
      where: { id: eventId, organizationId: orgId(ctx) },
      data: {
        name: input.name,
        type: input.type,
        startsAt: input.startsAt,
        endsAt: input.endsAt,
        ...(input.value === undefined ? {} : valueColumns(input.value && mergedValue(current, input.value))),
        productMasterId,
        locationId,
        ...flags,
      },
    });
    return getExternalEvent(ctx, eventId, query);
  });
}

/** Deletes the event and returns it as it was. */
export function deleteExternalEvent(ctx: RequestContext, eventId: string, query: Query = {}) {
  return inTransaction(ctx, async (ctx) => {
    const tx = ctx.prisma;
    refuseBookingEvent(await getExternalEvent(ctx, eventId, {}));
    const event = await getExternalEvent(ctx, eventId, query);
    await tx.externalEvent.deleteMany({ where: { id: eventId, organizationId: orgId(ctx) } });
    return event;
  });
}
