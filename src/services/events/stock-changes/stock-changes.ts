import type { RequestContext } from '../../../context.js';
import { DomainError, notFound } from '../../../kernel/errors.js';
import { orgId } from '../../tenant.js';
import type { PublishedEvent } from '../publisher/published-event.js';

export interface StockChangeFilter {
  locationId?: string | null;
  productId?: string | null;
}

/** One stock.changed event as a subscriber sees it (its payload is written by the ledger's trigger, docs/events.md). */
export interface StockChange {
  eventId: string;
  stockLineId: string;
  productId: string;
  locationId: string;
  occurredAt: Date;
  changes: { transactionId: string; transactionType: string; bucket: string; deltaQty: number; qtyAfter: number; sourceType: string | null; sourceId: string | null }[];
}

const asStockChange = (event: PublishedEvent): StockChange => ({
  eventId: String(event.id),
  stockLineId: event.subjectId!,
  productId: event.productId!,
  locationId: event.locationId!,
  occurredAt: new Date(event.createdAt),
  changes: (event.payload.changes ?? []) as StockChange['changes'],
});

/**
 * The caller's organization's stock changes at a location, of a product, or both, from now on, as they are
 * published (from any instance). Neither given: VALIDATION_ERROR; an unknown or another organization's id: NOT_FOUND.
 */
export async function stockChanges(ctx: RequestContext, filter: StockChangeFilter): Promise<AsyncIterableIterator<StockChange>> {
  const { locationId, productId } = filter;
  if (!locationId && !productId) {
    throw new DomainError('VALIDATION_ERROR', 'Give a locationId, a productId or both', { details: { locationId: ['Give a locationId or a productId'] } });
  }
  const organizationId = orgId(ctx);
  const [location, product] = await Promise.all([
    locationId ? ctx.prisma.location.findFirst({ where: { id: locationId, organizationId }, select: { id: true } }) : true,
    productId ? ctx.prisma.productMaster.findFirst({ where: { id: productId, organizationId }, select: { id: true } }) : true,
  ]);
  if (!location) throw notFound('Location');
  if (!product) throw notFound('Product');
  if (!ctx.app.events) throw new DomainError('INTERNAL_SERVER_ERROR', 'Events are not delivered by this process');
  const events = ctx.app.events.stream(
    organizationId,
    (event) => event.type === 'stock.changed' && (!locationId || event.locationId === locationId) && (!productId || event.productId === productId),
  );
  const iterator: AsyncIterableIterator<StockChange> = {
    async next() {
      const next = await events.next();
      return next.done ? next : { done: false, value: asStockChange(next.value) };
    },
    async return() {
      await events.return?.();
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}
