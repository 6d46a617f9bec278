import { z } from 'zod';
import type { RequestContext } from '../../context.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { YEAR_RANGE_MESSAGE, yearInRange } from '../../kernel/input-limits.js';
import { orgId, parseInput } from '../tenant.js';
import { BUCKETS } from './quantities.js';

/** Largest page of GET /api/inventory/adjustments (the interface leaves the maximum open). */
export const HISTORY_MAX_LIMIT = 500;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const when = z
  .string()
  .trim()
  .refine((text) => !Number.isNaN(Date.parse(DAY.test(text) ? `${text}T00:00:00Z` : text)), { message: 'Must be an ISO 8601 date (YYYY-MM-DD) or date-time', abort: true })
  .refine((text) => yearInRange(new Date(DAY.test(text) ? `${text}T00:00:00Z` : text)), YEAR_RANGE_MESSAGE)
  .nullish();
const id = z.string().min(1).nullish();

const filterFields = {
  inventoryItemId: id,
  productMasterId: id,
  locationId: id,
  startDate: when,
  endDate: when,
  bucket: z.enum([...BUCKETS, 'ALL'], { message: `One of ${[...BUCKETS, 'ALL'].join(', ')}` }).nullish(),
  transactionType: z.string().trim().max(200).nullish(),
};

const datesInOrder = (f: { startDate?: string | null; endDate?: string | null }, issue: z.RefinementCtx) => {
  if (f.startDate && f.endDate && bounds(f).start! > bounds(f).end!) {
    issue.addIssue({ code: 'custom', path: ['endDate'], message: 'Must not be before startDate' });
  }
};

const filterSchema = z.object(filterFields).superRefine(datesInOrder);
const pageSchema = z
  .object({
    ...filterFields,
    limit: z.number().int('Must be a whole number').min(1, `Must be from 1 to ${HISTORY_MAX_LIMIT}`).max(HISTORY_MAX_LIMIT, `Must be from 1 to ${HISTORY_MAX_LIMIT}`).nullish(),
    offset: z.number().int('Must be a whole number').min(0, 'Must be 0 or more').nullish(),
  })
  .superRefine(datesInOrder);

export type LedgerFilter = z.input<typeof filterSchema>;

/** startDate from the start of its day; a plain endDate date includes that whole day (UTC). */
function bounds(f: { startDate?: string | null; endDate?: string | null }) {
  const start = f.startDate ? new Date(DAY.test(f.startDate) ? `${f.startDate}T00:00:00.000Z` : f.startDate) : undefined;
  const end = f.endDate ? (DAY.test(f.endDate) ? new Date(Date.parse(`${f.endDate}T00:00:00.000Z`) + 86_400_000 - 1) : new Date(f.endDate)) : undefined;
  return { start, end };
}

/** The where clause of a ledger query: always the caller's organization; ON_HAND rows unless told otherwise. */
export function ledgerWhere(ctx: RequestContext, raw: LedgerFilter): Prisma.StockTransactionWhereInput {
  return whereOf(ctx, parseInput(filterSchema, raw));
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
  const where = whereOf(ctx, filter);
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
export function findLedger(ctx: RequestContext, filter: LedgerFilter, query: object) {
  return ctx.prisma.stockTransaction.findMany({ ...query, where: ledgerWhere(ctx, filter), orderBy: LEDGER_ORDER });
}

export function countLedger(ctx: RequestContext, filter: LedgerFilter) {
  return ctx.prisma.stockTransaction.count({ where: ledgerWhere(ctx, filter) });
}
