import type { z } from 'zod';
import { type inTransitQuery, type inventoryTransferListQuery, TRANSFERS_DEFAULT_LIMIT } from '../../../contracts/transfers/inventory-transfers/inventory-transfer-queries.js';
import type { RequestContext } from '../../../context.js';
import { notFound, validationError } from '../../../kernel/errors.js';
import { Prisma } from '../../../generated/prisma/client.js';
import type { InventoryTransferStatus } from '../../../generated/prisma/client.js';
import { sumOf, totalOf } from '../../../kernel/quantity-totals.js';
import { checkFilterIds } from '../../filter-ids.js';
import { type ListWindow, orgId } from '../../tenant.js';
import { TRANSFER_WITH_LINES } from './transfer-shape.js';

/** The filters as their contracts output them (parsed once, where they come in). */
export type TransferListArgs = z.output<typeof inventoryTransferListQuery>;
export type InTransitArgs = z.output<typeof inTransitQuery>;

const range = (from?: string, to?: string) =>
  from || to ? { ...(from ? { gte: new Date(from) } : {}), ...(to ? { lte: new Date(to) } : {}) } : undefined;

/** A page of transfers, newest first, with the total (GET /api/inventory/transfers); a connection's window replaces limit and offset. */
export async function listTransfers(ctx: RequestContext, f: TransferListArgs, window?: ListWindow) {
  await checkFilterIds(ctx, { locationId: [f.sourceLocationId, f.destLocationId, f.locationId], productMasterId: f.productMasterId });
  for (const [from, to, field] of [[f.createdFrom, f.createdTo, 'createdTo'], [f.shippedFrom, f.shippedTo, 'shippedTo']] as const) {
    if (from && to && new Date(from) > new Date(to)) throw validationError({ [field]: ['Must not be before the start of the range'] });
  }
  const where: Prisma.InventoryTransferWhereInput = {
    organizationId: orgId(ctx),
    ...(f.status?.length ? { status: { in: f.status as InventoryTransferStatus[] } } : {}),
    ...(f.sourceLocationId ? { sourceLocationId: f.sourceLocationId } : {}),
    ...(f.destLocationId ? { destLocationId: f.destLocationId } : {}),
    ...(f.locationId ? { OR: [{ sourceLocationId: f.locationId }, { destLocationId: f.locationId }] } : {}),
    ...(f.productMasterId ? { lines: { some: { productMasterId: f.productMasterId } } } : {}),
    ...(range(f.createdFrom, f.createdTo) ? { createdAt: range(f.createdFrom, f.createdTo) } : {}),
    ...(range(f.shippedFrom, f.shippedTo) ? { shippedAt: range(f.shippedFrom, f.shippedTo) } : {}),
  };
  const limit = window ? window.take : (f.limit ?? TRANSFERS_DEFAULT_LIMIT);
  const offset = window ? window.skip : (f.offset ?? 0);
  const [transfers, total] = await Promise.all([
    ctx.prisma.inventoryTransfer.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip: offset, take: limit, ...TRANSFER_WITH_LINES }),
    ctx.prisma.inventoryTransfer.count({ where }),
  ]);
  return { transfers, total, limit, offset };
}

export async function getTransfer(ctx: RequestContext, id: string) {
  const transfer = await ctx.prisma.inventoryTransfer.findFirst({ where: { id, organizationId: orgId(ctx) }, ...TRANSFER_WITH_LINES });
  if (!transfer) throw notFound('Transfer');
  return transfer;
}

export interface InTransitRow {
  productMasterId: string;
  locationId: string;
  /** Units shipped to this location and not yet received. */
  inbound: number;
  /** Units shipped from this location and not yet received at their destination. */
  outbound: number;
}

/**
 * Stock in transit per location and product: what IN_TRANSIT transfers shipped and their destination
 * has not received yet, counted inbound at the destination and outbound at the source.
 */
export async function inTransit(ctx: RequestContext, f: InTransitArgs) {
  await checkFilterIds(ctx, { locationId: f.locationId, productMasterId: f.productMasterId });
  const read = await ctx.prisma.$queryRaw<(Omit<InTransitRow, 'inbound' | 'outbound'> & { inbound: bigint; outbound: bigint })[]>`
    SELECT "productMasterId", "locationId", SUM(inbound)::bigint AS inbound, SUM(outbound)::bigint AS outbound
    FROM (
      SELECT l."productMasterId", side."locationId", side.inbound * (l."shippedQuantity" - l."receivedQuantity") AS inbound,
             side.outbound * (l."shippedQuantity" - l."receivedQuantity") AS outbound
      FROM inventory_transfers t
      JOIN inventory_transfer_lines l ON l."transferId" = t.id
      CROSS JOIN LATERAL (VALUES (t."destLocationId", 1, 0), (t."sourceLocationId", 0, 1)) AS side("locationId", inbound, outbound)
      WHERE t."organizationId" = ${orgId(ctx)} AND t.status = 'IN_TRANSIT' AND l."shippedQuantity" > l."receivedQuantity"
        ${f.productMasterId ? Prisma.sql`AND l."productMasterId" = ${f.productMasterId}` : Prisma.empty}
    ) moving
    ${f.locationId ? Prisma.sql`WHERE "locationId" = ${f.locationId}` : Prisma.empty}
    GROUP BY "productMasterId", "locationId"
    ORDER BY "locationId", "productMasterId"`;
  // Several transfers of int4 lines to one location add up past int4: summed as bigint.
  const rows: InTransitRow[] = read.map((row) => ({ ...row, inbound: totalOf(row.inbound), outbound: totalOf(row.outbound) }));
  return { inTransit: rows, totalInbound: sumOf(rows, (r) => r.inbound), totalOutbound: sumOf(rows, (r) => r.outbound) };
}
