import type { TxContext } from '../../db/transactions.js';
import { newFieldErrors, validationError } from '../../kernel/errors.js';
import { orgId } from '../tenant.js';

/**
 * Checks that the location and the lines' products named in a booking's body are the organization's: an unknown
 * or foreign one is 400 naming the field (`locationId`, `lines.i.productId`), as ids in bodies are.
 */
export async function checkBookingIds(ctx: TxContext, input: { locationId?: string; lines?: { productId: string }[] }) {
  const organizationId = orgId(ctx);
  const productIds = [...new Set((input.lines ?? []).map((l) => l.productId))];
  const [location, products] = await Promise.all([
    input.locationId ? ctx.prisma.location.count({ where: { id: input.locationId, organizationId } }) : 1,
    productIds.length ? ctx.prisma.productMaster.findMany({ where: { id: { in: productIds }, organizationId }, select: { id: true } }) : [],
  ]);
  const known = new Set(products.map((p) => p.id));
  const errors = newFieldErrors();
  if (!location) errors.locationId = ['Unknown location'];
  input.lines?.forEach((line, i) => {
    if (!known.has(line.productId)) errors[`lines.${i}.productId`] = ['Unknown product'];
  });
  if (Object.keys(errors).length) throw validationError(errors, 'The booking names unknown records');
}

/** The rows of a booking's lines, numbered from 1 in the order given. */
export const lineRows = (lines: { productId: string; quantity: number }[]) =>
  lines.map((line, i) => ({ lineNumber: i + 1, productMasterId: line.productId, quantity: line.quantity }));

/** A week (YYYY-MM-DD, a Monday) as the date column holds it. */
export const weekDate = (week: string) => new Date(`${week}T00:00:00Z`);
