import type { RequestContext } from '../context.js';
import type { Prisma } from '../generated/prisma/client.js';
import { isTxContext } from './transactions.js';

/**
 * The rows of a raw read, as `$queryRaw` gives them. Outside a transaction on PostgreSQL they come straight
 * from the pool (src/db/sql-reader.ts), which costs a hot read half the CPU of Prisma's raw path; in a
 * transaction, or on PGlite, through Prisma. For reads that run on every request of a hot path only.
 */
export function readRows<T>(ctx: RequestContext, query: Prisma.Sql): Promise<T[]> {
  const reads = isTxContext(ctx) ? undefined : ctx.app.reads;
  return reads ? reads.rows<T>(query) : ctx.prisma.$queryRaw<T[]>(query);
}
