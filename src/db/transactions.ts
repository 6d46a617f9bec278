// The words for database handles (docs/development.md, "Transactions"): a Tx is a transaction handle, a
// Db either the client or a transaction handle. A request's context carries a Db; work that must be
// atomic runs in inTransaction, which hands its callback a context whose handle is the transaction.
import type { DbContext, RequestContext } from '../context.js';
import type { Prisma, PrismaClient } from '../generated/prisma/client.js';

/** A transaction handle (the argument of a prisma.$transaction callback). */
export type Tx = Prisma.TransactionClient;

/** The client or a transaction handle: what code that opens no transaction of its own reads and writes through. */
export type Db = PrismaClient | Tx;

/** A context whose handle is a transaction: what inTransaction's callback receives. */
export type TxContext = InTransaction<RequestContext>;

export interface TransactionOptions {
  isolationLevel?: Prisma.TransactionIsolationLevel;
  /** How long to wait for a connection (ms). */
  maxWait?: number;
  /** How long the transaction may run (ms). */
  timeout?: number;
}

/**
 * Interactive transaction limits of one stock change: requests on a hot line queue on its row lock, so
 * they may wait longer for a connection than Prisma's 2 s default under load.
 */
export const TRANSACTION = { maxWait: 10_000, timeout: 15_000 } satisfies TransactionOptions;

/**
 * Runs `work` in one transaction, with a context whose handle is that transaction. When `ctx` is already
 * in one, `work` runs in it (the options of the transaction that is open apply): a function can then
 * run on its own or as part of a caller's transaction.
 */
export function inTransaction<C extends DbContext, T>(ctx: C, work: (txCtx: InTransaction<C>) => Promise<T>, options?: TransactionOptions): Promise<T> {
  if (isTxContext(ctx)) return work(ctx);
  return ctx.app.prisma.$transaction((tx) => work({ ...ctx, prisma: tx, inTransaction: true }), options);
}

/** A context of this kind whose handle is a transaction. */
export type InTransaction<C extends DbContext> = C & { prisma: Tx; inTransaction: true };

/** Is this context's handle a transaction? */
export const isTxContext = <C extends DbContext>(ctx: C): ctx is InTransaction<C> => ctx.inTransaction === true;

/**
 * The context of work inside a transaction opened before the context could be made (a worker claims its
 * work in the transaction, then learns whom it acts for). Everything else opens one with inTransaction.
 */
export const joinTransaction = (ctx: RequestContext, tx: Tx): TxContext => ({ ...ctx, prisma: tx, inTransaction: true });
