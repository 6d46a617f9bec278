import type { z } from 'zod';
import { SHIPMENTS_DEFAULT_LIMIT, type shipmentListQuery } from '../../contracts/shipments/shipment-queries.js';
import type { RequestContext } from '../../context.js';
import type { Prisma, ShipmentStatus } from '../../generated/prisma/client.js';
import { notFound } from '../../kernel/errors.js';
import { checkFilterIds } from '../filter-ids.js';
import { escapeLike } from '../search.js';
import { type ListWindow, orgId } from '../tenant.js';
import { SHIPMENT_WITH_LINES } from './shipment-shape.js';

export type ShipmentListArgs = z.output<typeof shipmentListQuery>;

const DAY_MS = 86_400_000;

/** The number a search names: `12`, `SH-12` or `SH-000012`. */
const numberIn = (search: string) => {
  const match = /^(?:SH-)?(\d{1,9})$/i.exec(search);
  return match ? Number(match[1]) : null;
};

/** A page of the organization's shipments, newest first, with the total; a connection's window replaces limit and offset. */
export async function listShipments(ctx: RequestContext, f: ShipmentListArgs, window?: ListWindow) {
  await checkFilterIds(ctx, { locationId: f.locationId });
  const number = f.search ? numberIn(f.search) : null;
  const like = f.search ? escapeLike(f.search) : '';
  const where: Prisma.ShipmentWhereInput = {
    organizationId: orgId(ctx),
    ...(f.status?.length ? { status: { in: f.status as ShipmentStatus[] } } : {}),
    ...(f.locationId ? { locationId: f.locationId } : {}),
    ...(f.orderId ? { salesOrderId: f.orderId } : {}),
    ...(f.transferId ? { transferId: f.transferId } : {}),
    ...(f.carrier ? { carrier: { equals: f.carrier, mode: 'insensitive' } } : {}),
    ...(f.from || f.to
      ? { createdAt: { ...(f.from ? { gte: new Date(`${f.from}T00:00:00Z`) } : {}), ...(f.to ? { lt: new Date(Date.parse(`${f.to}T00:00:00Z`) + DAY_MS) } : {}) } }
      : {}),
    ...(f.search
      ? {
          OR: [
            { trackingNumber: { contains: like, mode: 'insensitive' } },
            { salesOrder: { externalId: { contains: like, mode: 'insensitive' } } },
            ...(number != null ? [{ number }] : []),
          ],
        }
      : {}),
  };
  const limit = window ? window.take : (f.limit ?? SHIPMENTS_DEFAULT_LIMIT);
  const offset = window ? window.skip : (f.offset ?? 0);
  const [shipments, total] = await Promise.all([
    ctx.prisma.shipment.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip: offset, take: limit, ...SHIPMENT_WITH_LINES }),
    ctx.prisma.shipment.count({ where }),
  ]);
  return { shipments, total, limit, offset };
}

/** One shipment of the organization with its lines and lots; unknown or foreign: 404. */
export async function getShipment(ctx: RequestContext, id: string) {
  const shipment = await ctx.prisma.shipment.findFirst({ where: { id, organizationId: orgId(ctx) }, ...SHIPMENT_WITH_LINES });
  if (!shipment) throw notFound('Shipment');
  return shipment;
}
