import type { z } from 'zod';
import type { binMove, locationBinsQuery } from '../../../contracts/transfers/bin-moves/bin-move.js';
import type { RequestContext } from '../../../context.js';
import { uuidv7 } from '../../../db/ids.js';
import { DomainError, newFieldErrors, notFound, validationError } from '../../../kernel/errors.js';
import { sumOf } from '../../../kernel/quantity-totals.js';
import { orgId } from '../../tenant.js';
import { availableQty, outOfRange } from '../../inventory/stock-lines/quantities.js';
import { createStockLines, lineKeyOf, applyStockChangeSeries } from '../../inventory/ledger/stock-ledger.js';
import { openReservations, type ReservationSource } from '../../inventory/reservations/fefo-reservations.js';
import { TRANSFER_TRANSACTION } from '../inventory-transfers/transfer-state.js';
import { inTransaction, type TxContext } from '../../../db/transactions.js';

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
    const [moved] = await moveWithinLocation(ctx, [{ ...input, lotId: input.lotId ?? null, exact: false }], source, ([short]) => {
      throw new DomainError('INSUFFICIENT_STOCK', 'Not enough available stock in the bin', { details: { quantity: [`Only ${short!.got} available in the bin (asked ${input.quantity})`] } });
    });
    return { success: true as const, moveId, locationId: input.locationId, productMasterId: input.productMasterId, fromBinId: input.fromBinId, toBinId: input.toBinId, quantity: input.quantity, pieces: moved!.pieces };
  }, TRANSFER_TRANSACTION);
}

/** Units of a product to move inside one location, from a bin (or the un-binned line) to a bin. */
export interface WithinLocationMove {
  productMasterId: string;
  locationId: string;
  /** The lot; with `exact`, null is the line without a lot, else null means first-expiring lots first. */
  lotId: string | null;
  /** The bin the units leave; with `exact`, null is the un-binned line (put-away), else null means any bin. */
  fromBinId: string | null;
  toBinId: string;
  quantity: number;
  /** Only the line of exactly lotId and fromBinId. */
  exact: boolean;
}

/** A move the stock could not cover: its index in the list and the units found. */
export interface MoveShortfall {
  index: number;
  got: number;
}

/**
 * The house's one path for stock moving between bins of a location (bin moves, put-away), inside the
 * caller's transaction: locks the products' lines through the reservations service, takes each move's
 * units out with withdraw (ON_HAND down), and, when every move was covered, writes them into the same
 * lots in the destination bins (lines created when missing), all under `source`. When some move is short,
 * `refuse` is called with the shortfalls before anything is written (it throws).
 */
export async function moveWithinLocation(ctx: TxContext, moves: WithinLocationMove[], source: ReservationSource, refuse: (short: MoveShortfall[]) => never) {
  const organizationId = orgId(ctx);
  const pairs = [...new Map(moves.map((m) => [`${m.productMasterId}:${m.locationId}`, { productMasterId: m.productMasterId, locationId: m.locationId }])).values()];
  const session = await openReservations(ctx, { stockOf: pairs });
  const taken = moves.map((m) => session.withdraw({ productMasterId: m.productMasterId, locationId: m.locationId, quantity: m.quantity, lotId: m.lotId, binId: m.fromBinId, exact: m.exact }, source));
  const short = moves.flatMap((m, index) => {
    const got = taken[index]!.reduce((sum, a) => sum + a.quantity, 0);
    return got < m.quantity ? [{ index, got }] : [];
  });
  if (short.length) refuse(short);
  await session.write();
  const keys = moves.flatMap((m, i) => taken[i]!.map((a) => ({ productMasterId: m.productMasterId, locationId: m.locationId, lotId: a.lotId, binId: m.toBinId })));
  await createStockLines(ctx, keys);
  const targets = await ctx.prisma.stockLine.findMany({
    where: { organizationId, OR: pairs.map((p) => ({ productMasterId: p.productMasterId, locationId: p.locationId, lineKey: { in: keys.filter((k) => k.productMasterId === p.productMasterId && k.locationId === p.locationId).map(lineKeyOf) } })) },
    select: { id: true, productMasterId: true, locationId: true, lineKey: true },
  });
  const targetOf = new Map(targets.map((t) => [`${t.productMasterId}:${t.locationId}:${t.lineKey}`, t.id]));
  const answer = moves.map((m, i) => ({
    ...m,
    pieces: taken[i]!.map((a) => ({
      lotId: a.lotId,
      quantity: a.quantity,
      fromStockLineId: a.stockLineId,
      toStockLineId: targetOf.get(`${m.productMasterId}:${m.locationId}:${lineKeyOf({ ...m, lotId: a.lotId, binId: m.toBinId })}`)!,
    })),
  }));
  await applyStockChangeSeries(ctx, answer.flatMap((m) => m.pieces.map((p) => ({ ...source, stockLineId: p.toStockLineId, deltas: { ON_HAND: p.quantity } })))).catch(outOfRange('quantity'));
  return answer;
}
