import type { Prisma } from '../generated/prisma/client.js';

/** A transaction handle (the argument of a prisma.$transaction callback). */
export type Tx = Prisma.TransactionClient;

/**
 * Interactive transaction limits of one stock change: requests on a hot line queue on its row lock, so
 * they may wait longer for a connection than Prisma's 2 s default under load.
 */
export const TRANSACTION = { maxWait: 10_000, timeout: 15_000 };
