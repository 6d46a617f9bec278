import type { Prisma } from '../../../generated/prisma/client.js';

/** A hold with its lines in order, each with the stock line's location, product and lot (for the answer and the filters). */
export const HOLD_WITH_LINES = {
  include: {
    lines: {
      orderBy: { id: 'asc' },
      include: { stockLine: { select: { productMasterId: true, locationId: true, lotId: true, binId: true } } },
    },
  },
} as const satisfies Prisma.InventoryHoldDefaultArgs;

export type HoldWithLines = Prisma.InventoryHoldGetPayload<typeof HOLD_WITH_LINES>;
