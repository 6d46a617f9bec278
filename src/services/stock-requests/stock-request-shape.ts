import type { Prisma } from '../../generated/prisma/client.js';

/** A request as every answer carries it: with its lines, in the order they were added. */
export const REQUEST_WITH_LINES = {
  include: { lines: { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] } },
} as const satisfies { include: Prisma.StockRequestInclude };

export type StockRequestWithLines = Prisma.StockRequestGetPayload<typeof REQUEST_WITH_LINES>;

/** A request's number as people write it: SR- and six digits or more. */
export const requestReference = (request: { number: number }) => `SR-${String(request.number).padStart(6, '0')}`;
