import type { z } from 'zod';
import type { shipmentCreate } from '../../contracts/shipments/shipments.js';
import type { RequestContext } from '../../context.js';
import { inTransaction, type TxContext } from '../../db/transactions.js';
import type { SalesOrder } from '../../generated/prisma/client.js';
import { DomainError, newFieldErrors, validationError } from '../../kernel/errors.js';
import { actorOf } from '../actor-of.js';
import { openReservations } from '../inventory/reservations/fefo-reservations.js';
import { orgId } from '../tenant.js';
import { SHIPMENT_WITH_LINES, shipmentReference, type ShipmentWithLines } from './shipment-shape.js';
import { nextNumber, SHIPMENT_TRANSACTION, shipmentMoved } from './shipment-state.js';
import { shipmentSource } from './shipment-stock.js';
import { createTransferShipment } from './shipment-create-transfer.js';

export type ShipmentCreateInput = z.output<typeof shipmentCreate>;

/** Orders that take no more shipments. */
const CLOSED_ORDERS = new Set(['CANCELLED', 'FULFILLED']);

/** Locks the organization's order (creations for one order queue, so together they never ship more than it ordered); unknown or foreign: 400. */
async function lockOrder(ctx: TxContext, id: string): Promise<SalesOrder> {
  const [order] = await ctx.prisma.$queryRaw<SalesOrder[]>`SELECT * FROM sales_orders WHERE id = ${id} AND "organizationId" = ${orgId(ctx)} FOR UPDATE`;
  if (!order) throw validationError({ salesOrderId: ['Unknown sales order'] }, 'Unknown sales order');
  if (CLOSED_ORDERS.has(order.status)) throw new DomainError('INVALID_STATE', `Cannot ship a sales order that is ${order.status}`);
  return order;
}

/**
 * A RESERVED shipment of a sales order from its fulfillment location, in one transaction under the order's row lock:
 * - the lines asked (default: every unit of every order line not yet on a shipment that is not CANCELLED); more than
 *   that is 400 on `lines.i.quantity`, a line not of the order 400 on `lines.i.orderLineId`, nothing open 409;
 * - the units the order holds reserved are handed over: released from the order (ORDER_RELEASE rows, its lines'
 *   reservedQty down), then the shipment reserves its units through the reservations service, first-expiring lots
 *   first (SHIPMENT_RESERVE rows), one allocation per stock line; short of stock: 400 INSUFFICIENT_STOCK on
 *   `lines.i.quantity`, nothing changed.
 */
export function createShipment(ctx: RequestContext, input: ShipmentCreateInput): Promise<ShipmentWithLines> {
  if (input.transferId) return createTransferShipment(ctx, input.transferId, input.note ?? null);
  return inTransaction(
    ctx,
    async (ctx) => {
      const order = await lockOrder(ctx, input.salesOrderId!);
      const orderLines = await ctx.prisma.salesOrderLine.findMany({
        where: { salesOrderId: order.id },
        orderBy: { lineNumber: 'asc' },
        include: { allocations: { orderBy: { id: 'asc' } }, shipmentLines: { where: { shipment: { status: { not: 'CANCELLED' } } }, select: { quantity: true } } },
      });
      const open = (line: (typeof orderLines)[number]) => line.requestedQty - line.shipmentLines.reduce((sum, l) => sum + l.quantity, 0);
      const byId = new Map(orderLines.map((line) => [line.id, line]));
      const errors = newFieldErrors();
      const wanted = input.lines
        ? input.lines.flatMap((l, i) => {
            const line = byId.get(l.orderLineId);
            if (!line) errors[`lines.${i}.orderLineId`] = ['Not a line of this order'];
            else if (l.quantity > open(line)) errors[`lines.${i}.quantity`] = [`At most ${open(line)} of this order line remain to ship (ordered ${line.requestedQty})`];
            return line ? [{ line, quantity: l.quantity }] : [];
          })
        : orderLines.filter((line) => open(line) > 0).map((line) => ({ line, quantity: open(line) }));
      if (Object.keys(errors).length) throw validationError(errors, 'The lines do not fit the order');
      if (!wanted.length) throw new DomainError('INVALID_STATE', 'Every unit of the order is already on a shipment');

      const { actorType, createdBy } = actorOf(ctx);
      const shipment = await ctx.prisma.shipment.create({
        data: {
          organizationId: orgId(ctx), number: await nextNumber(ctx), salesOrderId: order.id, locationId: order.fulfillmentLocationId, note: input.note ?? null, createdByType: actorType, createdBy,
          lines: { create: wanted.map((w, i) => ({ lineNumber: i + 1, orderLineId: w.line.id, productMasterId: w.line.productMasterId, quantity: w.quantity })) },
        },
        include: { lines: { orderBy: { lineNumber: 'asc' } } },
      });

      const session = await openReservations(ctx, {
        stockOf: wanted.map((w) => ({ productMasterId: w.line.productMasterId, locationId: order.fulfillmentLocationId })),
        lineIds: wanted.flatMap((w) => w.line.allocations.map((a) => a.stockLineId)),
      });
      const handOver = { transactionType: 'ORDER_RELEASE', sourceType: 'SALES_ORDER', sourceId: order.id, comment: `Handed to shipment ${shipmentReference(shipment)}` };
      const reserve = shipmentSource(shipment, 'SHIPMENT_RESERVE', 'Reserved for shipment');
      const rows: { lineId: string; stockLineId: string; lotId: string | null; binId: string | null; quantity: number }[] = [];
      const handedOver: { id: string; quantity: number }[] = [];
      for (const [i, w] of wanted.entries()) {
        let left = w.quantity;
        for (const a of w.line.allocations) {
          if (!left) break;
          const take = Math.min(left, a.quantity);
          session.release(a.stockLineId, take, handOver);
          a.quantity -= take;
          left -= take;
          handedOver.push(a);
        }
        const got = session.reserve({ productMasterId: w.line.productMasterId, locationId: order.fulfillmentLocationId, quantity: w.quantity }, reserve);
        const units = got.reduce((sum, a) => sum + a.quantity, 0);
        if (units < w.quantity) errors[`lines.${i}.quantity`] = [`Only ${units} available at the fulfillment location (asked ${w.quantity})`];
        rows.push(...got.map((a) => ({ lineId: shipment.lines[i]!.id, stockLineId: a.stockLineId, lotId: a.lotId, binId: a.binId, quantity: a.quantity })));
      }
      if (Object.keys(errors).length) throw new DomainError('INSUFFICIENT_STOCK', 'Not enough available stock at the fulfillment location for the shipment', { details: errors });
      await session.write();
      await ctx.prisma.shipmentAllocation.createMany({ data: rows });
      await keepOrderAllocations(ctx, handedOver, wanted.map((w) => w.line.id));
      await shipmentMoved(ctx, shipment, null);
      return ctx.prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id }, ...SHIPMENT_WITH_LINES });
    },
    SHIPMENT_TRANSACTION,
  );
}

/** Writes the allocations the hand-over took from (emptied ones deleted), then each order line's reservedQty as their sum. */
async function keepOrderAllocations(ctx: TxContext, handedOver: { id: string; quantity: number }[], ids: string[]) {
  const emptied = handedOver.filter((a) => a.quantity <= 0).map((a) => a.id);
  if (emptied.length) await ctx.prisma.salesOrderAllocation.deleteMany({ where: { id: { in: emptied } } });
  for (const a of handedOver.filter((a) => a.quantity > 0)) await ctx.prisma.salesOrderAllocation.update({ where: { id: a.id }, data: { quantity: a.quantity } });
  await ctx.prisma.$executeRaw`
    UPDATE sales_order_lines l SET "reservedQty" = COALESCE((SELECT SUM(a.quantity) FROM sales_order_allocations a WHERE a."orderLineId" = l.id), 0)::int
    WHERE l.id = ANY(${ids}::text[])`;
}
