import type { z } from 'zod';
import type { inventoryHoldPlace } from '../../../contracts/inventory/holds/inventory-hold.js';
import type { RequestContext } from '../../../context.js';
import { inTransaction, TRANSACTION, type TxContext } from '../../../db/transactions.js';
import type { Prisma } from '../../../generated/prisma/client.js';
import { DomainError, newFieldErrors, validationError } from '../../../kernel/errors.js';
import { actorOf } from '../../actor-of.js';
import { orgId } from '../../tenant.js';
import { openReservations } from '../reservations/fefo-reservations.js';
import { HOLD_WITH_LINES, type HoldWithLines } from './hold-shape.js';

export type HoldPlaceInput = z.output<typeof inventoryHoldPlace>;

interface Target {
  stockLineId: string | null;
  lotId: string | null;
  productMasterId: string | null;
  locationId: string | null;
  /** The stock lines the hold covers. */
  lines: Prisma.StockLineWhereInput;
}

/**
 * Checks the ids the body names (unknown or another organization's: 400 naming the field, all at once)
 * and says which stock lines the hold covers.
 */
async function targetOf(ctx: RequestContext, input: HoldPlaceInput): Promise<Target> {
  const organizationId = orgId(ctx);
  const db = ctx.prisma;
  const [line, lot, product, location] = await Promise.all([
    input.stockLineId ? db.stockLine.findFirst({ where: { id: input.stockLineId, organizationId } }) : null,
    input.lotId ? db.lot.findFirst({ where: { id: input.lotId, organizationId } }) : null,
    input.productMasterId ? db.productMaster.findFirst({ where: { id: input.productMasterId, organizationId }, select: { id: true } }) : null,
    input.locationId ? db.location.findFirst({ where: { id: input.locationId, organizationId }, select: { id: true } }) : null,
  ]);
  const details = newFieldErrors();
  if (input.stockLineId && !line) details.stockLineId = ['Inventory item not found'];
  if (input.lotId && !lot) details.lotId = ['Lot not found'];
  if (input.productMasterId && !product) details.productMasterId = ['Product not found'];
  if (input.locationId && !location) details.locationId = ['Location not found'];
  if (Object.keys(details).length) throw validationError(details);
  const where = { organizationId };
  switch (input.scope) {
    case 'STOCK_LINE':
      return { stockLineId: line!.id, lotId: line!.lotId, productMasterId: line!.productMasterId, locationId: line!.locationId, lines: { ...where, id: line!.id } };
    case 'LOT':
      return { stockLineId: null, lotId: lot!.id, productMasterId: lot!.productMasterId, locationId: input.locationId ?? null, lines: { ...where, lotId: lot!.id, ...(input.locationId ? { locationId: input.locationId } : {}) } };
    default:
      return { stockLineId: null, lotId: null, productMasterId: input.productMasterId!, locationId: input.locationId!, lines: { ...where, productMasterId: input.productMasterId!, locationId: input.locationId! } };
  }
}

/**
 * Places a hold (POST /api/inventory/holds): a reservation session locks the covered stock lines before
 * their availability is read, so an allocation running at the same time either took its units first or
 * waits and sees them held. The units (all available ones, or `quantity` taken first-expiring lot first,
 * as the reservations service orders them) move from available to on hold through the ledger (HOLD rows,
 * sourceType HOLD, the hold's id). Short of stock: 400 INSUFFICIENT_STOCK, nothing written.
 */
export async function placeHold(ctx: RequestContext, input: HoldPlaceInput): Promise<HoldWithLines> {
  const target = await targetOf(ctx, input);
  return inTransaction(ctx, async (ctx) => {
    const ids = (await ctx.prisma.stockLine.findMany({ where: target.lines, select: { id: true } })).map((l) => l.id);
    const session = await openReservations(ctx, { stockOf: [], lineIds: ids });
    const hold = await createHold(ctx, input, target);
    const source = { transactionType: 'HOLD', reasonCode: input.reasonCode, comment: input.note ?? null, sourceType: 'HOLD', sourceId: hold.id };
    const pieces = session.hold(ids, input.quantity ?? null, source);
    const held = pieces.reduce((sum, piece) => sum + piece.quantity, 0);
    if (held === 0 || (input.quantity != null && held < input.quantity)) {
      const message = held === 0 ? 'Nothing available to hold' : `Only ${held} available to hold (asked ${input.quantity})`;
      throw new DomainError('INSUFFICIENT_STOCK', message, { details: { quantity: [message] } });
    }
    await ctx.prisma.inventoryHoldLine.createMany({ data: pieces.map((piece) => ({ holdId: hold.id, stockLineId: piece.stockLineId, quantity: piece.quantity })) });
    await session.write();
    return ctx.prisma.inventoryHold.findUniqueOrThrow({ where: { id: hold.id }, ...HOLD_WITH_LINES });
  }, TRANSACTION);
}

function createHold(ctx: TxContext, input: HoldPlaceInput, target: Target) {
  const { actorType, createdBy } = actorOf(ctx);
  return ctx.prisma.inventoryHold.create({
    data: {
      organizationId: orgId(ctx),
      scope: input.scope,
      stockLineId: target.stockLineId,
      lotId: target.lotId,
      productMasterId: target.productMasterId,
      locationId: target.locationId,
      reasonCode: input.reasonCode,
      note: input.note ?? null,
      expiresAt: input.expiresAt ?? null,
      createdByType: actorType,
      createdBy,
    },
  });
}
