import type { z } from 'zod';
import type { RequestContext } from '../../../context.js';
import type { lotValidation } from '../../../contracts/inventory/lot-control/lot-validation.js';
import { inTransaction } from '../../../db/transactions.js';
import { isoDay } from '../../../kernel/iso-dates.js';
import { newFieldErrors, validationError } from '../../../kernel/errors.js';
import { orgId } from '../../tenant.js';
import { openReservations, type LineRefusal } from '../reservations/fefo-reservations.js';
import { startOfTodayUtc } from '../stock-lines/quantities.js';

export type LotValidationInput = z.output<typeof lotValidation>;

const REFUSAL_MESSAGES: Record<LineRefusal, string> = {
  EXPIRED: 'The lot has expired',
  RECALLED: 'The lot is recalled',
  SHORT_DATED: 'The lot has less shelf life left than the minimum',
  ON_HOLD: 'Every available unit of the line is on hold',
  NO_AVAILABLE_UNITS: 'The line has no available units (all reserved, picked, recalled or expired)',
};

export interface LotVerdict {
  stockLineId: string;
  lotId: string | null;
  lotCode: string | null;
  binId: string | null;
  expiryDate: string | null;
  daysToExpiry: number | null;
  qtyAvailable: number;
  qtyToPick: number;
  pickable: boolean;
  refusal: { code: LineRefusal; message: string } | null;
}

export interface LotValidationResult {
  productMasterId: string;
  locationId: string;
  requestedQuantity: number;
  minShelfLifeDays: number;
  minShelfLifeSource: 'PRODUCT' | 'ORGANIZATION';
  lines: LotVerdict[];
  pickableQuantity: number;
  allocatedQuantity: number;
  canFulfill: boolean;
  shortfall: number;
}

const DAY_MS = 86_400_000;

/** Refuses ids that are not the organization's (or a lot of another product, a bin of another location), naming each field. */
async function resolveInput(ctx: RequestContext, input: LotValidationInput) {
  const organizationId = orgId(ctx);
  const [product, location, lot, bin] = await Promise.all([
    ctx.prisma.productMaster.findFirst({
      where: { id: input.productMasterId, organizationId },
      select: { minShelfLifeDays: true, organization: { select: { minShelfLifeDays: true } } },
    }),
    ctx.prisma.location.findFirst({ where: { id: input.locationId, organizationId }, select: { id: true } }),
    input.lotId || input.lotCode
      ? ctx.prisma.lot.findFirst({
          where: { organizationId, productMasterId: input.productMasterId, ...(input.lotId ? { id: input.lotId } : { code: input.lotCode! }) },
          select: { id: true },
        })
      : null,
    input.binId ? ctx.prisma.bin.findFirst({ where: { id: input.binId, organizationId, locationId: input.locationId }, select: { id: true } }) : null,
  ]);
  const details = newFieldErrors();
  if (!product) details.productMasterId = ['Unknown product'];
  if (!location) details.locationId = ['Unknown location'];
  if ((input.lotId || input.lotCode) && !lot) details[input.lotId ? 'lotId' : 'lotCode'] = ['Unknown lot of this product'];
  if (input.binId && !bin) details.binId = ['Unknown bin of this location'];
  if (Object.keys(details).length) throw validationError(details);
  return { product: product!, lotId: lot?.id ?? null };
}

/**
 * Which lines of the product at the location a pick may take from, first expiry first, and why the others
 * are refused. The answer is the reservations service's own review (the one code that picks), read in a
 * transaction that writes nothing: what it says is what a pick would take now.
 */
export async function validateLots(ctx: RequestContext, input: LotValidationInput): Promise<LotValidationResult> {
  const { product, lotId } = await resolveInput(ctx, input);
  const { productMasterId, locationId, quantity } = input;
  const reviews = await inTransaction(ctx, async (txCtx) => {
    const session = await openReservations(txCtx, { stockOf: [{ productMasterId, locationId }] });
    return session.review({ productMasterId, locationId, quantity, lotId, binId: input.binId ?? null });
  });
  const lotIds = [...new Set(reviews.flatMap((r) => (r.lotId ? [r.lotId] : [])))];
  const codes = new Map(
    lotIds.length ? (await ctx.prisma.lot.findMany({ where: { organizationId: orgId(ctx), id: { in: lotIds } }, select: { id: true, code: true } })).map((l) => [l.id, l.code]) : [],
  );
  const today = startOfTodayUtc().getTime();
  const lines = reviews.map((r): LotVerdict => {
    const expiryDate = isoDay(r.expiryDate) ?? null;
    return {
      stockLineId: r.stockLineId,
      lotId: r.lotId,
      lotCode: r.lotId ? (codes.get(r.lotId) ?? null) : null,
      binId: r.binId,
      expiryDate,
      daysToExpiry: expiryDate ? Math.round((Date.parse(`${expiryDate}T00:00:00Z`) - today) / DAY_MS) : null,
      qtyAvailable: r.available,
      qtyToPick: r.quantity,
      pickable: r.refusal === null,
      refusal: r.refusal ? { code: r.refusal, message: REFUSAL_MESSAGES[r.refusal] } : null,
    };
  });
  const allocatedQuantity = lines.reduce((sum, l) => sum + l.qtyToPick, 0);
  return {
    productMasterId,
    locationId,
    requestedQuantity: quantity,
    minShelfLifeDays: product.minShelfLifeDays ?? product.organization.minShelfLifeDays,
    minShelfLifeSource: product.minShelfLifeDays === null ? 'ORGANIZATION' : 'PRODUCT',
    lines,
    pickableQuantity: lines.reduce((sum, l) => sum + (l.pickable ? l.qtyAvailable : 0), 0),
    allocatedQuantity,
    canFulfill: allocatedQuantity >= quantity,
    shortfall: quantity - allocatedQuantity,
  };
}
