import type { z } from 'zod';
import { BLIND_FORM_PAGE, type blindFormQuery } from '../../../contracts/inventory/cycle-counts/blind-form-query.js';
import type { RequestContext } from '../../../context.js';
import { notFound, validationError } from '../../../kernel/errors.js';
import { checkFilterIds } from '../../filter-ids.js';
import { orgId, pageWindow } from '../../tenant.js';
import { batchLines } from './batch-reads.js';

export type BlindFormArgs = z.output<typeof blindFormQuery>;

/** A line of the count sheet: where to look and what, and never how many the system expects. */
export interface SheetLine {
  lineId: string | null;
  stockLineId: string | null;
  binId: string | null;
  binCode: string | null;
  productMasterId: string;
  sku: string;
  productName: string;
  lotId: string | null;
  lotCode: string | null;
  expiryDate: Date | null;
}

const sheetLine = (line: SheetLine): SheetLine => ({
  lineId: line.lineId,
  stockLineId: line.stockLineId,
  binId: line.binId,
  binCode: line.binCode,
  productMasterId: line.productMasterId,
  sku: line.sku,
  productName: line.productName,
  lotId: line.lotId,
  lotCode: line.lotCode,
  expiryDate: line.expiryDate,
});

/**
 * The blind count sheet of a batch (its lines) or of a location (its stock lines, a page at a time), by bin,
 * SKU and lot. Quantities are left out here, by the server: no field of the answer carries one.
 */
export async function blindForm(ctx: RequestContext, args: BlindFormArgs) {
  const organizationId = orgId(ctx);
  await checkFilterIds(ctx, { locationId: args.locationId });
  if (args.batchId) {
    const batch = await ctx.prisma.cycleCountBatch.findFirst({ where: { id: args.batchId, organizationId }, select: { id: true, locationId: true } });
    if (!batch) throw notFound('Cycle count batch');
    if (batch.locationId !== args.locationId) throw validationError({ batchId: ['The batch counts another location'] });
    const lines = (await batchLines(ctx, [batch.id])).map((line) => sheetLine({ ...line, lineId: line.id }));
    return { locationId: args.locationId, batchId: batch.id, lines, page: 1, pageSize: lines.length, total: lines.length, totalPages: 1 };
  }
  const { page, limit, skip, take } = pageWindow(args.page, args.limit, BLIND_FORM_PAGE);
  const [rows, total] = await Promise.all([
    ctx.prisma.$queryRaw<Omit<SheetLine, 'lineId'>[]>`
      SELECT sl.id AS "stockLineId", sl."binId", bin.code AS "binCode", sl."productMasterId", pm.sku, pm.name AS "productName",
             sl."lotId", lot.code AS "lotCode", lot."expiryDate"
      FROM stock_lines sl
      JOIN product_masters pm ON pm.id = sl."productMasterId"
      LEFT JOIN lots lot ON lot.id = sl."lotId"
      LEFT JOIN bins bin ON bin.id = sl."binId"
      WHERE sl."organizationId" = ${organizationId} AND sl."locationId" = ${args.locationId}
      ORDER BY bin.code NULLS FIRST, pm.sku, lot.code NULLS FIRST, sl.id
      LIMIT ${take}::int OFFSET ${skip}::int`,
    ctx.prisma.stockLine.count({ where: { organizationId, locationId: args.locationId } }),
  ]);
  const lines = rows.map((row) => sheetLine({ ...row, lineId: null }));
  return { locationId: args.locationId, batchId: null, lines, page, pageSize: limit, total, totalPages: Math.ceil(total / limit) };
}
