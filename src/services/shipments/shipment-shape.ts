import type { Prisma } from '../../generated/prisma/client.js';

/** A shipment as every answer carries it: its lines in order, each with the stock lines (lot, bin) holding its units. */
export const SHIPMENT_WITH_LINES = {
  include: { lines: { orderBy: { lineNumber: 'asc' }, include: { allocations: { orderBy: { id: 'asc' } } } } },
} as const satisfies { include: Prisma.ShipmentInclude };

export type ShipmentWithLines = Prisma.ShipmentGetPayload<typeof SHIPMENT_WITH_LINES>;

/** A shipment's number as people write it: SH- and six digits or more. */
export const shipmentReference = (shipment: { number: number }) => `SH-${String(shipment.number).padStart(6, '0')}`;
