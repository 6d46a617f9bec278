import type { TxContext } from '../../../db/transactions.js';
import type { ReplenishmentRecord, ReplenishmentStatus } from '../../../generated/prisma/client.js';
import { DomainError, notFound } from '../../../kernel/errors.js';
import { orgId } from '../../tenant.js';

/** What each move may start from; the one table of the record's states. */
const ALLOWED_FROM = {
  approve: ['PROPOSED'],
  convert: ['APPROVED'],
  cancel: ['PROPOSED', 'APPROVED'],
} as const satisfies Record<string, readonly ReplenishmentStatus[]>;

export type ReplenishmentMove = keyof typeof ALLOWED_FROM;

/**
 * Locks the organization's record (SELECT ... FOR UPDATE) for the rest of the transaction and checks that
 * `move` may start from its state: a second request on the same record waits here and then sees the state
 * the first left, so each move happens once. Unknown or foreign id: 404; wrong state: 409 INVALID_STATE.
 */
export async function lockRecordFor(ctx: TxContext, id: string, move: ReplenishmentMove): Promise<ReplenishmentRecord> {
  const [record] = await ctx.prisma.$queryRaw<ReplenishmentRecord[]>`
    SELECT * FROM replenishment_records WHERE id = ${id} AND "organizationId" = ${orgId(ctx)} FOR UPDATE`;
  if (!record) throw notFound('Replenishment record');
  const allowed: readonly ReplenishmentStatus[] = ALLOWED_FROM[move];
  if (!allowed.includes(record.status)) {
    throw new DomainError('INVALID_STATE', `Cannot ${move} a replenishment record that is ${record.status}; allowed from ${allowed.join(' or ')}`);
  }
  return record;
}
