import type { z } from 'zod';
import { CYCLE_COUNT_BATCH_PAGE, type cycleCountBatchQuery } from '../../../contracts/inventory/cycle-counts/cycle-count-batch.js';
import type { RequestContext } from '../../../context.js';
import { type CycleCountBatch, Prisma } from '../../../generated/prisma/client.js';
import { checkFilterIds } from '../../filter-ids.js';
import { type ListWindow, orgId, pageWindow } from '../../tenant.js';

export type BatchListArgs = z.output<typeof cycleCountBatchQuery>;

export interface CountLine {
  id: string;
  batchId: string;
  productMasterId: string;
  sku: string;
  productName: string;
  lotId: string | null;
  lotCode: string | null;
  expiryDate: Date | null;
  binId: string | null;
  binCode: string | null;
  stockLineId: string | null;
  snapshotQty: number;
  found: boolean;
  countedQty: number | null;
  expectedQty: number | null;
  countedAt: Date | null;
  countedBy: string | null;
  history: { countedQty: number; expectedQty: number; countedAt: string; countedBy: string }[];
}

export type BatchRow = CycleCountBatch & { itemCount: number };

const countLines = (where: Prisma.Sql) => Prisma.sql`
    SELECT c.id, c."batchId", c."productMasterId", pm.sku, pm.name AS "productName", c."lotId", lot.code AS "lotCode", lot."expiryDate",
           c."binId", bin.code AS "binCode", c."stockLineId", c."snapshotQty", c.found, c."countedQty", c."expectedQty", c."countedAt",
           c."countedBy", c.history
    FROM cycle_count_lines c
    JOIN product_masters pm ON pm.id = c."productMasterId"
    LEFT JOIN lots lot ON lot.id = c."lotId"
    LEFT JOIN bins bin ON bin.id = c."binId"
    WHERE ${where}
    ORDER BY bin.code NULLS FIRST, pm.sku, lot.code NULLS FIRST, c.id`;

/** A batch's lines with what a counter reads on a sheet (product, lot and bin codes), by bin, SKU and lot. */
export function batchLines(ctx: RequestContext, batchIds: readonly string[]): Promise<CountLine[]> {
  return ctx.prisma.$queryRaw<CountLine[]>(countLines(Prisma.sql`c."batchId" = ANY(${[...batchIds]}::text[])`));
}

/** Count lines by id (the node lookup, which has checked their batches' organization). */
export function countLinesById(ctx: RequestContext, ids: readonly string[]): Promise<CountLine[]> {
  return ctx.prisma.$queryRaw<CountLine[]>(countLines(Prisma.sql`c.id = ANY(${[...ids]}::text[])`));
}

/** One batch of the organization with its line count; null when unknown or another organization's. */
export async function readBatch(ctx: RequestContext, id: string): Promise<BatchRow | null> {
  const batch = await ctx.prisma.cycleCountBatch.findFirst({ where: { id, organizationId: orgId(ctx) }, include: { _count: { select: { lines: true } } } });
  if (!batch) return null;
  const { _count, ...row } = batch;
  return { ...row, itemCount: _count.lines };
}

function listWhere(ctx: RequestContext, args: BatchListArgs): Prisma.CycleCountBatchWhereInput {
  const where: Prisma.CycleCountBatchWhereInput = { organizationId: orgId(ctx), locationId: args.locationId };
  if (args.status) where.status = args.status;
  else if (!args.includeCompleted) where.status = 'IN_PROGRESS';
  if (args.assigneeId) where.assigneeId = args.assigneeId;
  return where;
}

/** Batches of a location, newest first: IN_PROGRESS only unless a status or includeCompleted says otherwise. */
export async function listBatches(ctx: RequestContext, args: BatchListArgs, window?: ListWindow) {
  await checkFilterIds(ctx, { locationId: args.locationId });
  const { page, limit, skip, take } = pageWindow(args.page, args.limit, CYCLE_COUNT_BATCH_PAGE, window);
  const where = listWhere(ctx, args);
  const [rows, total] = await Promise.all([
    ctx.prisma.cycleCountBatch.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip, take, include: { _count: { select: { lines: true } } } }),
    ctx.prisma.cycleCountBatch.count({ where }),
  ]);
  const batches: BatchRow[] = rows.map(({ _count, ...row }) => ({ ...row, itemCount: _count.lines }));
  return { type: 'batches' as const, batches, count: total, page, pageSize: limit, total, totalPages: Math.ceil(total / limit) };
}
