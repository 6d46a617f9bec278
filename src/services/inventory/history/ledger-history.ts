import type { z } from 'zod';
import { bounds, ledgerFilter as filterSchema, ledgerPageQuery as pageSchema } from '../../../contracts/inventory/history/ledger-query.js';
import type { RequestContext } from '../../../context.js';
import type { Prisma } from '../../../generated/prisma/client.js';
import { checkFilterIds } from '../../filter-ids.js';
import { orgId, parseInput } from '../../tenant.js';

export type LedgerFilter = z.input<typeof filterSchema>;

/**
 * The where clause of a ledger query: always the caller's organization; ON_HAND rows unless told
 * otherwise. A stock line, product or location filter that is not the organization's is a 404.
 */
async function ledgerWhere(ctx: RequestContext, raw: LedgerFilter): Promise<Prisma.StockTransactionWhereInput> {
  return checkedWhere(ctx, parseInput(filterSchema, raw));
}

async function checkedWhere(ctx: RequestContext, f: z.output<typeof filterSchema>): Promise<Prisma.StockTransactionWhereInput> {
  await checkFilterIds(ctx, { inventoryItemId: f.inventoryItemId, productMasterId: f.productMasterId, locationId: f.locationId });
  return whereOf(ctx, f);
}

function whereOf(ctx: RequestContext, f: z.output<typeof filterSchema>): Prisma.StockTransactionWhereInput {
  const { start, end } = bounds(f);
  const types = f.transactionType?.split(',').map((t) => t.trim().toUpperCase()).filter(Boolean);
  return {
    organizationId: orgId(ctx),
    ...(f.inventoryItemId ? { stockLineId: f.inventoryItemId } : {}),
    ...(f.productMasterId ? { productMasterId: f.productMasterId } : {}),
    ...(f.locationId ? { locationId: f.locationId } : {}),
    ...(start || end ? { createdAt: { ...(start ? { gte: start } : {}), ...(end ? { lte: end } : {}) } } : {}),
    ...(f.bucket === 'ALL' ? {} : { bucket: f.bucket ?? 'ON_HAND' }),
    ...(types?.length ? { transactionType: { in: types } } : {}),
  };
}

/** Newest first: createdAt is the database clock after the line's row lock and seq breaks ties within a millisecond. */
export const LEDGER_ORDER = [{ createdAt: 'desc' }, { seq: 'desc' }] satisfies Prisma.StockTransactionOrderByWithRelationInput[];

/**
 * One offset page of ledger rows: the filter, paging and total with both pagination shapes of the
 * interface. The rows load with the caller's selection (ledgerEntries).
 */
export async function ledgerPage(ctx: RequestContext, raw: LedgerFilter & { limit?: number | null; offset?: number | null }) {
  const { limit: rawLimit, offset: rawOffset, ...filter } = parseInput(pageSchema, raw);
  const where = await checkedWhere(ctx, filter);
  const limit = rawLimit ?? 50;
  const offset = rawOffset ?? 0;
  const total = await ctx.prisma.stockTransaction.count({ where });
  return {
    where,
    total,
    limit,
    offset,
    hasMore: offset + limit < total,
    page: Math.floor(offset / limit) + 1,
    pageSize: limit,
    totalPages: Math.ceil(total / limit),
  };
}

export function ledgerEntries(ctx: RequestContext, page: Awaited<ReturnType<typeof ledgerPage>>, query: object) {
  return ctx.prisma.stockTransaction.findMany({ ...query, where: page.where, orderBy: LEDGER_ORDER, skip: page.offset, take: page.limit });
}

/** Ledger rows by id (rows never change, so reading one again gives what was written), in the given order. */
export async function ledgerRows(ctx: RequestContext, ids: string[], query: object) {
  const select = (query as { select?: object }).select;
  const rows = await ctx.prisma.stockTransaction.findMany({ ...query, ...(select ? { select: { ...select, id: true } } : {}), where: { organizationId: orgId(ctx), id: { in: ids } } });
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** Ledger rows for a Relay connection (`query` carries cursor, take and skip). */
export async function findLedger(ctx: RequestContext, filter: LedgerFilter, query: object) {
  return ctx.prisma.stockTransaction.findMany({ ...query, where: await ledgerWhere(ctx, filter), orderBy: LEDGER_ORDER });
}

export async function countLedger(ctx: RequestContext, filter: LedgerFilter) {
  return ctx.prisma.stockTransaction.count({ where: await ledgerWhere(ctx, filter) });
}
