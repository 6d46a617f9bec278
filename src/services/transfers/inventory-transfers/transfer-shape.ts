import type { Prisma } from '../../../generated/prisma/client.js';

/** A transfer with its lines in order, each with the source pieces (lot, bin, quantity) it shipped. */
export const TRANSFER_WITH_LINES = {
  include: {
    lines: {
      orderBy: { lineNumber: 'asc' },
      include: { shipments: { orderBy: { id: 'asc' }, include: { lot: { select: { code: true, expiryDate: true } } } } },
    },
  },
} as const satisfies Prisma.InventoryTransferDefaultArgs;

export type TransferWithLines = Prisma.InventoryTransferGetPayload<typeof TRANSFER_WITH_LINES>;
