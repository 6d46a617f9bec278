import type { RequestContext } from '../../context.js';
import { validationError } from '../../kernel/errors.js';
import { calendarDate, MAX_WINDOW_DAYS, spanRefusal } from '../../kernel/input-limits.js';
import type { PurchaseOrderStatus } from '../../generated/prisma/enums.js';
import { isoWeekStart } from '../../kernel/iso-weeks.js';
import { checkFilterIds } from '../filter-ids.js';
import { orgId } from '../tenant.js';

type Query = object;

function supplierWhere(ctx: RequestContext, search: string | null | undefined) {
  const term = search?.trim();
  return {
    organizationId: orgId(ctx),
    ...(term ? { OR: [{ code: { contains: term, mode: 'insensitive' as const } }, { name: { contains: term, mode: 'insensitive' as const } }] } : {}),
  };
}

/** Suppliers in id (creation) order; `query` carries the cursor, take and skip of a Relay connection. */
export function findSuppliers(ctx: RequestContext, search: string | null | undefined, query: Query) {
  return ctx.prisma.supplier.findMany({ ...query, where: supplierWhere(ctx, search), orderBy: { id: 'asc' } });
}

/** Suppliers matching the search, in all pages. */
export const countSuppliers = (ctx: RequestContext, search: string | null | undefined) => ctx.prisma.supplier.count({ where: supplierWhere(ctx, search) });

export interface PurchaseOrderFilter {
  status?: PurchaseOrderStatus | null;
  locationId?: string | null;
}

/** Purchase orders in id (creation) order, optionally by status and destination location. */
export async function findPurchaseOrders(ctx: RequestContext, filter: PurchaseOrderFilter, query: Query) {
  await checkFilterIds(ctx, filter);
  return ctx.prisma.purchaseOrder.findMany({ ...query, where: purchaseOrderWhere(ctx, filter), orderBy: { id: 'asc' } });
}

/** Purchase orders matching the filter, in all pages (404 for a foreign location, as the list). */
export async function countPurchaseOrders(ctx: RequestContext, filter: PurchaseOrderFilter) {
  await checkFilterIds(ctx, filter);
  return ctx.prisma.purchaseOrder.count({ where: purchaseOrderWhere(ctx, filter) });
}

const purchaseOrderWhere = (ctx: RequestContext, filter: PurchaseOrderFilter) => ({
  organizationId: orgId(ctx),
  ...(filter.status ? { status: filter.status } : {}),
  ...(filter.locationId ? { destinationLocationId: filter.locationId } : {}),
});

/** Sales orders in id (creation) order, optionally by fulfillment location. */
export async function findSalesOrders(ctx: RequestContext, filter: { locationId?: string | null }, query: Query) {
  await checkFilterIds(ctx, filter);
  return ctx.prisma.salesOrder.findMany({ ...query, where: salesOrderWhere(ctx, filter), orderBy: { id: 'asc' } });
}

/** Sales orders matching the filter, in all pages. */
export async function countSalesOrders(ctx: RequestContext, filter: { locationId?: string | null }) {
  await checkFilterIds(ctx, filter);
  return ctx.prisma.salesOrder.count({ where: salesOrderWhere(ctx, filter) });
}

const salesOrderWhere = (ctx: RequestContext, filter: { locationId?: string | null }) => ({
  organizationId: orgId(ctx),
  ...(filter.locationId ? { fulfillmentLocationId: filter.locationId } : {}),
});

export interface DemandHistoryFilter {
  productMasterId?: string | null;
  locationId?: string | null;
  channel?: string | null;
  /** First day: the weeks that hold it or follow it. */
  from?: string | null;
  /** Last day: the weeks that hold it or precede it. */
  to?: string | null;
}

/** Weekly demand records by week, then channel label. */
export async function findDemandHistory(ctx: RequestContext, filter: DemandHistoryFilter, query: Query) {
  const where = await demandHistoryWhere(ctx, filter);
  return ctx.prisma.demandHistory.findMany({ ...query, where, orderBy: [{ weekStart: 'asc' }, { channel: 'asc' }, { id: 'asc' }] });
}

/** Weekly demand records matching the filter, in all pages (refused as the list is). */
export async function countDemandHistory(ctx: RequestContext, filter: DemandHistoryFilter) {
  return ctx.prisma.demandHistory.count({ where: await demandHistoryWhere(ctx, filter) });
}

async function demandHistoryWhere(ctx: RequestContext, filter: DemandHistoryFilter) {
  if (filter.from && filter.to && filter.from > filter.to) throw validationError({ to: ['Must not be before from'] });
  const tooLong = filter.from && filter.to ? spanRefusal(calendarDate(filter.from), calendarDate(filter.to), MAX_WINDOW_DAYS, 'from') : null;
  if (tooLong) throw validationError({ to: [tooLong] });
  await checkFilterIds(ctx, filter);
  return {
    organizationId: orgId(ctx),
    ...(filter.productMasterId ? { productMasterId: filter.productMasterId } : {}),
    ...(filter.locationId ? { locationId: filter.locationId } : {}),
    ...(filter.channel ? { channel: filter.channel } : {}),
    ...(filter.from || filter.to
      ? { weekStart: { ...(filter.from ? { gte: isoWeekStart(new Date(`${filter.from}T00:00:00Z`)) } : {}), ...(filter.to ? { lte: new Date(`${filter.to}T00:00:00Z`) } : {}) } }
      : {}),
  };
}
