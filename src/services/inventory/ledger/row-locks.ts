import type { TxContext } from '../../../db/transactions.js';
import { Prisma } from '../../../generated/prisma/client.js';
import type { StockLine } from '../../../generated/prisma/client.js';
import { orgId } from '../../tenant.js';

/** A stock line with its lot and bin codes: what adjustment and receiving responses show. */
export interface LineState extends StockLine {
  lotCode: string | null;
  expiryDate: Date | string | null;
  binCode: string | null;
  lotRecalled: boolean | null;
}

/**
 * Locks the organization's stock lines with these ids (SELECT ... FOR UPDATE) and returns them with
 * their lot and bin codes. Lines are locked in id order so that two requests locking the same lines
 * cannot deadlock. While the transaction lasts nobody else can change them, so a quantity computed
 * from what this returns (an absolute count, for example) is applied to exactly the value it was computed from.
 */
export async function lockLines(ctx: TxContext, ids: string[]): Promise<Map<string, LineState>> {
  if (!ids.length) return new Map();
  const rows = await ctx.prisma.$queryRaw<LineState[]>`
    SELECT sl.*, l.code AS "lotCode", l."expiryDate" AS "expiryDate", l.recalled AS "lotRecalled", b.code AS "binCode"
    FROM stock_lines sl
    LEFT JOIN lots l ON l.id = sl."lotId"
    LEFT JOIN bins b ON b.id = sl."binId"
    WHERE sl.id IN (${Prisma.join([...new Set(ids)].sort())}) AND sl."organizationId" = ${orgId(ctx)}
    ORDER BY sl.id
    FOR UPDATE OF sl`;
  return new Map(rows.map((row) => [row.id, row]));
}
