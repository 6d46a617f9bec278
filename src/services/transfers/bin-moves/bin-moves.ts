import type { z } from 'zod';
import type { binMove, locationBinsQuery } from '../../../contracts/transfers/bin-moves/bin-move.js';
import type { RequestContext } from '../../../context.js';
import { uuidv7 } from '../../../db/ids.js';
import { DomainError, newFieldErrors, notFound, validationError } from '../../../kernel/errors.js';
import { sumOf } from '../../../kernel/quantity-totals.js';
import { orgId } from '../../tenant.js';
import { availableQty, outOfRange } from '../../inventory/stock-lines/quantities.js';
import { createStockLines, lineKeyOf, applyStockChangeSeries } from '../../inventory/ledger/stock-ledger.js';
import { openReservations } from '../../inventory/reservations/fefo-reservations.js';
import { TRANSFER_TRANSACTION } from '../inventory-transfers/transfer-state.js';
import { inTransaction } from '../../../db/transactions.js';

/** The inputs as their contracts output them (parsed once, where they come in). */
export type BinMoveInput = z.output<typeof binMove>;
export type LocationBinsArgs = z.output<typeof locationBinsQuery>;

/** The bins of a location, by code, each with its stock lines (product, lot, quantities) and totals. */
export async function locationBins(ctx: RequestContext, args: LocationBinsArgs) {
  const organizationId = orgId(ctx);
  const [location, product] = await Promise.all([
    ctx.prisma.location.findFirst({ where: { id: args.locationId, organizationId }, select: { id: true, name: true, code: true } }),
    args.productMasterId ? ctx.prisma.productMaster.count({ where: { id: args.productMasterId, organizationId } }) : 1,
  ]);
  if (!location) throw notFound('Location');
  if (!product) throw notFound('Product');
  const bins = await ctx.prisma.bin.findMany({
    where: { organizationId, locationId: location.id },
    orderBy: [{ code: 'asc' }, { id: 'asc' }],
    select: {
      id: true,
      code: true,
      locationId: true,
      stockLines: {
        where: { qtyOnHand: { gt: 0 }, ...(args.productMasterId ? { productMasterId: args.productMasterId } : {}) },
        orderBy: { id: 'asc' },
        include: { productMaster: { select: { sku: true, name: true } }, lot: { select: { code: true, expiryDate: true } } },
      },
    },
  });
  const answer = bins.map((bin) => {
    const stock = bin.stockLines.map((line) => ({
      stockLineId: line.id,
      productMasterId: line.productMasterId,
      sku: line.productMaster.sku,
      productName: line.productMaster.name,
      lotId: line.lotId,
      lotCode: line.lot?.code ?? null,
      expiryDate: line.lot?.expiryDate ?? null,
      qtyOnHand: line.qtyOnHand,
      qtyAvailable: availableQty(line),
    }));
    return {
      id: bin.id,
      code: bin.code,
      locationId: bin.locationId,
      totalOnHand: sumOf(stock, (s) => s.qtyOnHand),
      totalAvailable: sumOf(stock, (s) => s.qtyAvailable),
      stock,
    };
  });
  return { location, bins: answer };
}

/**
 * Moves available units of a product from one bin to another in one location, in one transaction: the
 * units leave the source bin's lines (the lot given, else first-expiring lots first, through the
 * reservations service) and arrive in the same lots in the destination bin, lines created when missing;
 * BIN_MOVE ledger rows out and in, sourceType BIN_MOVE and one move id. Short of available stock: 400
 * INSUFFICIENT_STOCK, nothing changed.
 */
export async function moveBinStock(ctx: RequestContext, input: BinMoveInput) {
  const organizationId = orgId(ctx);
  const [location, product, lot, bins] = await Promise.all([
    ctx.prisma.location.count({ where: { id: input.locationId, organizationId } }),
    ctx.prisma.productMaster.count({ where: { id: input.productMasterId, organizationId } }),
    input.lotId ? ctx.prisma.lot.findFirst({ where: { id: input.lotId, organizationId }, select: { productMasterId: true } }) : null,
    ctx.prisma.bin.findMany({ where: { organizationId, id: { in: [input.fromBinId, input.toBinId] } }, select: { id: true, locationId: true } }),
  ]);
  const details = newFieldErrors();
  if (!location) details.locationId = ['Location not found'];
  if (!product) details.productMasterId = ['Product not found'];
  if (input.lotId && !lot) details.lotId = ['Lot not found'];
  else if (lot && lot.productMasterId !== input.productMasterId) details.lotId = ['Not a lot of this product'];
  for (const field of ['fromBinId', 'toBinId'] as const) {
    const bin = bins.find((b) => b.id === input[field]);
    if (!bin) details[field] = ['Bin not found'];
    else if (bin.locationId !== input.locationId) details[field] = ['Not a bin of this location'];
  }
  if (Object.keys(details).length) throw validationError(details);

  const moveId = uuidv7();
  const source = { transactionType: 'BIN_MOVE', sourceType: 'BIN_MOVE', sourceId: moveId, comment: input.comment ?? null };
  return inTransaction(ctx, async (ctx) => {
    const tx = ctx.prisma;
    const session = await openReservations(ctx, { stockOf: [{ productMasterId: input.productMasterId, locationId: input.locationId }] });
    const taken = session.withdraw({ productMasterId: input.productMasterId, locationId: input.locationId, quantity: input.quantity, lotId: input.lotId, binId: input.fromBinId }, source);
    const got = taken.reduce((sum, a) => sum + a.quantity, 0);
    if (got < input.quantity) {
      throw new DomainError('INSUFFICIENT_STOCK', 'Not enough available stock in the bin', { details: { quantity: [`Only ${got} available in the bin (asked ${input.quantity})`] } });
    }
    await session.write();
    const keys = taken.map((a) => ({ productMasterId: input.productMasterId, locationId: input.locationId, lotId: a.lotId, binId: input.toBinId }));
    await createStockLines(ctx, keys);
    const targets = await tx.stockLine.findMany({
      where: { organizationId, productMasterId: input.productMasterId, locationId: input.locationId, lineKey: { in: keys.map(lineKeyOf) } },
      select: { id: true, lineKey: true },
    });
    const targetOf = new Map(targets.map((t) => [t.lineKey, t.id]));
    const pieces = taken.map((a, i) => ({ lotId: a.lotId, quantity: a.quantity, fromStockLineId: a.stockLineId, toStockLineId: targetOf.get(lineKeyOf(keys[i]!))! }));
    await applyStockChangeSeries(ctx, pieces.map((p) => ({ ...source, stockLineId: p.toStockLineId, deltas: { ON_HAND: p.quantity } }))).catch(outOfRange('quantity'));
    return { success: true as const, moveId, locationId: input.locationId, productMasterId: input.productMasterId, fromBinId: input.fromBinId, toBinId: input.toBinId, quantity: input.quantity, pieces };
  }, TRANSFER_TRANSACTION);
}
