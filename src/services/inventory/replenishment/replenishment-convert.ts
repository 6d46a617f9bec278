import type { RequestContext } from '../../../context.js';
import { inTransaction, TRANSACTION, type TxContext } from '../../../db/transactions.js';
import type { ReplenishmentRecord } from '../../../generated/prisma/client.js';
import { isoDay } from '../../../kernel/iso-dates.js';
import { notFound } from '../../../kernel/errors.js';
import { actorOf } from '../../actor-of.js';
import { orgId } from '../../tenant.js';
import { startOfTodayUtc } from '../stock-lines/quantities.js';
import { createTransfer } from '../../transfers/inventory-transfers/transfer-drafts.js';
import type { ReplenishmentMoveInput } from './replenishment-create.js';
import { lockRecordFor } from './replenishment-state.js';

/** Prefix of the purchase order numbers conversions give, followed by a per-organization sequence. */
export const REPLENISHMENT_PO_PREFIX = 'RPL-';

const DAY_MS = 86_400_000;

/**
 * The organization's next RPL-number. Conversions of one organization queue on a transaction-level
 * advisory lock, so two of them never read the same highest number; imported numbers of the same form count.
 */
async function nextOrderNumber(ctx: TxContext): Promise<string> {
  const organizationId = orgId(ctx);
  await ctx.prisma.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`replenishment-po:${organizationId}`}))`;
  const [row] = await ctx.prisma.$queryRaw<{ last: bigint | null }[]>`
    SELECT MAX(substring(number FROM ${`^${REPLENISHMENT_PO_PREFIX}([0-9]{1,15})$`})::bigint) AS last
    FROM purchase_orders WHERE "organizationId" = ${organizationId} AND number ~ ${`^${REPLENISHMENT_PO_PREFIX}[0-9]{1,15}$`}`;
  return `${REPLENISHMENT_PO_PREFIX}${String(Number(row?.last ?? 0n) + 1).padStart(6, '0')}`;
}

/**
 * A PENDING purchase order of one line to the record's location: expected today plus the supplier's lead
 * time, or on the need-by date when the supplier has none; the product's unit cost on the line.
 */
async function draftPurchaseOrder(ctx: TxContext, record: ReplenishmentRecord) {
  const organizationId = orgId(ctx);
  const [supplier, product] = await Promise.all([
    ctx.prisma.supplier.findFirst({ where: { id: record.supplierId!, organizationId }, select: { leadTimeDays: true } }),
    ctx.prisma.productMaster.findFirst({ where: { id: record.productMasterId, organizationId }, select: { unitCost: true } }),
  ]);
  if (!supplier) throw notFound('Supplier');
  if (!product) throw notFound('Product');
  const expectedAt = supplier.leadTimeDays != null ? new Date(startOfTodayUtc().getTime() + supplier.leadTimeDays * DAY_MS) : record.needBy;
  return ctx.prisma.purchaseOrder.create({
    data: {
      organizationId,
      number: await nextOrderNumber(ctx),
      supplierId: record.supplierId!,
      destinationLocationId: record.locationId,
      status: 'PENDING',
      expectedAt,
      lines: { create: { lineNumber: 1, productMasterId: record.productMasterId, quantity: record.quantity, unitCost: product.unitCost, expectedAt } },
    },
    select: { id: true },
  });
}

/**
 * APPROVED → ORDERED: a SUPPLIER record becomes a PENDING purchase order, a LOCATION record a DRAFT inventory
 * transfer (through the transfers service: nothing ships until someone ships it), and the record links it.
 * All in one transaction: a refusal (the source gone since) leaves the record APPROVED and creates nothing.
 */
export function convertReplenishment(ctx: RequestContext, input: ReplenishmentMoveInput): Promise<ReplenishmentRecord> {
  return inTransaction(
    ctx,
    async (ctx) => {
      const record = await lockRecordFor(ctx, input.id, 'convert');
      const link =
        record.sourceType === 'SUPPLIER'
          ? { purchaseOrderId: (await draftPurchaseOrder(ctx, record)).id }
          : {
              transferId: (
                await createTransfer(ctx, {
                  sourceLocationId: record.sourceLocationId!,
                  destLocationId: record.locationId,
                  lines: [{ productMasterId: record.productMasterId, quantity: record.quantity }],
                  reference: `Replenishment ${record.id}`,
                  expectedAt: isoDay(record.needBy),
                })
              ).id,
            };
      return ctx.prisma.replenishmentRecord.update({
        where: { id: record.id },
        data: { status: 'ORDERED', orderedAt: new Date(), orderedBy: actorOf(ctx).createdBy, ...link, ...(input.comment != null ? { comment: input.comment } : {}) },
      });
    },
    TRANSACTION,
  );
}
