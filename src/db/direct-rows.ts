import type { RequestContext } from '../context.js';
import type { Prisma } from '../generated/prisma/client.js';
import { isTxContext } from './transactions.js';

/**
 * The rows of one raw statement, as `$queryRaw` gives them. Outside a transaction on PostgreSQL the statement
 * runs straight on the pool (src/db/direct-sql.ts), which costs a hot path half the CPU of Prisma's raw path;
 * in a transaction, or on PGlite, through Prisma. For the statements of the hot paths only.
 */
export function directRows<T>(ctx: RequestContext, query: Prisma.Sql): Promise<T[]> {
  const direct = isTxContext(ctx) ? undefined : ctx.app.directSql;
  return direct ? direct.rows<T>(query) : ctx.prisma.$queryRaw<T[]>(query);
}
