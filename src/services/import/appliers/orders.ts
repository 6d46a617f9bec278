import { uuidv7 } from '../../../db/ids.js';
import { Prisma } from '../../../generated/prisma/client.js';
import type { TxContext } from '../../../db/transactions.js';
import type { SalesOrderStatus } from '../../../generated/prisma/enums.js';
import { openReservations } from '../../inventory/reservations/fefo-reservations.js';
import { orgId } from '../../tenant.js';
import type { ChunkApplier, ImportRow, RowRejection } from '../jobs/kinds.js';
import { orderRow } from '../../../contracts/import/order-row.js';
import { parseRows } from './parse-rows.js';
import { lastPerKey, resolveLocations, resolveSkus } from './references.js';

/**
 * Applying a sales order (orderRow) reserves stock for it at the fulfillment location; importing it again
 * releases what it held (as far as the lines still have it reserved) and reserves again for the new lines. An order
 * that is closed, or has a shipment (which took over part of its reservation and names its lines), is not changed.
 */

/** Orders in these states are finished: an import does not reopen them. */
const CLOSED: ReadonlySet<SalesOrderStatus> = new Set(['CANCELLED', 'FULFILLED']);

export const applyOrderRows: ChunkApplier = async (ctx, rows) => {
  const tx = ctx.prisma;
  const organizationId = orgId(ctx);
  const { accepted, rejections } = await checkOrderRows(ctx, rows, { lock: true });
  // The same order twice in one chunk: the later row wins (the earlier one would be released at once).
  const orders = lastPerKey(accepted, (o) => o.externalId);
  if (!orders.length) return rejections.sort((a, b) => a.rowNumber - b.rowNumber);

  // The headers in one statement, upserted in key order: their row locks are taken in one order by
  // every chunk, so two chunks holding the same orders cannot deadlock; a concurrent import of the same
  // order waits here.
  const saved = await tx.$queryRaw<{ id: string; externalId: string }[]>`
    INSERT INTO sales_orders (id, "organizationId", "externalId", "fulfillmentLocationId", "updatedAt")
    SELECT u.id, ${organizationId}, u.external_id, u.location_id, now()
    FROM unnest(${orders.map(() => uuidv7())}::text[], ${orders.map((o) => o.externalId)}::text[], ${orders.map((o) => o.locationId)}::text[])
      AS u(id, external_id, location_id)
    ORDER BY u.external_id COLLATE "C"
    ON CONFLICT ("organizationId", "externalId") DO UPDATE SET "fulfillmentLocationId" = EXCLUDED."fulfillmentLocationId", "updatedAt" = now()
    RETURNING id, "externalId"`;
  const orderIds = new Map(saved.map((o) => [o.externalId, o.id]));
  const ids = [...orderIds.values()];
  const previous = await tx.salesOrderAllocation.findMany({
    where: { orderLine: { salesOrderId: { in: ids } } },
    orderBy: { id: 'asc' },
    select: { stockLineId: true, quantity: true, orderLine: { select: { salesOrderId: true } } },
  });

  // Lock every stock line this chunk may touch, in id order, before reading what is available: what
  // the orders held before and every line of each ordered product at its fulfillment location.
  const stockOf = orders.flatMap((o) => o.lines.map((l) => ({ productMasterId: l.productMasterId, locationId: o.locationId })));
  const reservations = await openReservations(ctx, { stockOf, lineIds: previous.map((a) => a.stockLineId) });

  // Release what each order held (one ledger row per order and stock line), then forget its lines.
  const released = new Map<string, { orderId: string; stockLineId: string; quantity: number }>();
  for (const a of previous) {
    const key = `${a.orderLine.salesOrderId}:${a.stockLineId}`;
    const entry = released.get(key) ?? released.set(key, { orderId: a.orderLine.salesOrderId, stockLineId: a.stockLineId, quantity: 0 }).get(key)!;
    entry.quantity += a.quantity;
  }
  // At most what the line still has reserved: a pick or release through the stock moves, or an
  // inventory import setting the reserved count, may have taken some of the order's units already.
  for (const r of released.values()) reservations.release(r.stockLineId, r.quantity, { transactionType: 'ORDER_RELEASE', sourceType: 'SALES_ORDER', sourceId: r.orderId });
  await tx.salesOrderLine.deleteMany({ where: { salesOrderId: { in: ids } } });

  // Reserve in row order, first-expiring lots first; what cannot be reserved is backordered.
  const lineRows: Prisma.SalesOrderLineCreateManyInput[] = [];
  const allocationRows: Prisma.SalesOrderAllocationCreateManyInput[] = [];
  const statuses = new Map<SalesOrderStatus, string[]>();
  for (const order of orders) {
    const salesOrderId = orderIds.get(order.externalId)!;
    let requested = 0;
    let reserved = 0;
    for (const [i, line] of order.lines.entries()) {
      const orderLineId = uuidv7();
      const allocations = reservations.reserve(
        { productMasterId: line.productMasterId, locationId: order.locationId, quantity: line.quantity },
        { transactionType: 'ORDER_RESERVE', sourceType: 'SALES_ORDER', sourceId: salesOrderId },
      );
      allocationRows.push(...allocations.map((a) => ({ orderLineId, stockLineId: a.stockLineId, quantity: a.quantity })));
      const taken = allocations.reduce((sum, a) => sum + a.quantity, 0);
      lineRows.push({ id: orderLineId, salesOrderId, lineNumber: i + 1, productMasterId: line.productMasterId, requestedQty: line.quantity, reservedQty: taken, backorderedQty: line.quantity - taken });
      requested += line.quantity;
      reserved += taken;
    }
    const status: SalesOrderStatus = reserved === requested ? 'ALLOCATED' : reserved === 0 ? 'OPEN' : 'PARTIALLY_ALLOCATED';
    (statuses.get(status) ?? statuses.set(status, []).get(status)!).push(salesOrderId);
  }
  // Releases before reservations, so every step keeps the quantity rule when the end state does.
  await reservations.write();
  await tx.salesOrderLine.createMany({ data: lineRows });
  if (allocationRows.length) await tx.salesOrderAllocation.createMany({ data: allocationRows });
  for (const [status, list] of statuses) await tx.salesOrder.updateMany({ where: { id: { in: list } }, data: { status } });
  return rejections.sort((a, b) => a.rowNumber - b.rowNumber);
};

/**
 * The checks of order rows that write nothing: each row parsed, its location and SKUs resolved in the
 * caller's organization, and an order refused that is closed or has a shipment. `lock` locks the orders
 * already here (the applier, so that no shipment starts before it rewrites their lines); a dry run reads them.
 */
export async function checkOrderRows(ctx: TxContext, rows: ImportRow[], { lock }: { lock: boolean }) {
  const tx = ctx.prisma;
  const organizationId = orgId(ctx);
  const { valid, rejections } = parseRows(orderRow, rows);
  const locations = await resolveLocations(ctx, valid.map((r) => r.data.fulfillmentLocationCode));
  const products = await resolveSkus(ctx, valid.flatMap((r) => r.data.lines.map((l) => l.sku)));
  // The orders already here, locked when `lock` (in the key order the upsert below takes) so that no shipment of one starts
  // between this check and the import's rewrite of its lines.
  const existing = new Map(
    (
      await tx.$queryRaw<{ externalId: string; status: SalesOrderStatus; shipped: boolean }[]>`
        SELECT o."externalId", o.status::text AS status, EXISTS (SELECT 1 FROM shipments s WHERE s."salesOrderId" = o.id) AS shipped
        FROM sales_orders o
        WHERE o."organizationId" = ${organizationId} AND o."externalId" = ANY(${valid.map((r) => r.data.externalId)}::text[])
        ORDER BY o."externalId" COLLATE "C"
        ${lock ? Prisma.sql`FOR UPDATE OF o` : Prisma.empty}`
    ).map((o) => [o.externalId, o]),
  );

  const accepted: { rowNumber: number; externalId: string; locationId: string; lines: { productMasterId: string; quantity: number }[] }[] = [];
  for (const { rowNumber, data } of valid) {
    const problems: RowRejection[] = [];
    const locationId = locations.get(data.fulfillmentLocationCode);
    if (!locationId) problems.push({ rowNumber, field: 'fulfillmentLocationCode', message: `Unknown location ${data.fulfillmentLocationCode}` });
    data.lines.forEach((line, i) => {
      if (!products.has(line.sku)) problems.push({ rowNumber, field: `lines.${i}.sku`, message: `Unknown SKU ${line.sku}` });
    });
    const order = existing.get(data.externalId);
    if (order && CLOSED.has(order.status)) problems.push({ rowNumber, field: 'externalId', message: `Order ${data.externalId} is ${order.status} and cannot be changed by an import` });
    else if (order?.shipped) problems.push({ rowNumber, field: 'externalId', message: `Order ${data.externalId} has shipments and cannot be changed by an import` });
    if (problems.length || !locationId) {
      rejections.push(...problems);
      continue;
    }
    accepted.push({ rowNumber, externalId: data.externalId, locationId, lines: data.lines.map((l) => ({ productMasterId: products.get(l.sku)!, quantity: l.quantity })) });
  }
  return { accepted, rejections: rejections.sort((a, b) => a.rowNumber - b.rowNumber) };
}
