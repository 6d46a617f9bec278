import type { z } from 'zod';
import type { inventoryHoldRelease } from '../../../contracts/inventory/holds/inventory-hold.js';
import type { RequestContext } from '../../../context.js';
import { inTransaction, TRANSACTION, type TxContext } from '../../../db/transactions.js';
import { Prisma } from '../../../generated/prisma/client.js';
import type { InventoryHold, InventoryHoldLine, InventoryHoldStatus } from '../../../generated/prisma/client.js';
import { DomainError, validationError } from '../../../kernel/errors.js';
import { actorOf } from '../../actor-of.js';
import { orgId } from '../../tenant.js';
import { applyStockChangeSeries, lockLines, type StockChange } from '../ledger/stock-ledger.js';
import { HOLD_WITH_LINES, type HoldWithLines } from './hold-shape.js';

export type HoldReleaseInput = z.output<typeof inventoryHoldRelease>;

/** Most due holds one read expires; the next read takes the rest. */
const EXPIRE_BATCH = 100;

/**
 * Locks the organization's holds with these ids that are still ACTIVE (SELECT ... FOR UPDATE, id order,
 * before any stock line: every hold writer locks holds first, then lines). A second request waits here
 * and then sees the status the first left, so a release or an expiry happens once.
 */
async function lockActiveHolds(ctx: TxContext, ids: string[]): Promise<InventoryHold[]> {
  if (!ids.length) return [];
  return ctx.prisma.$queryRaw<InventoryHold[]>`
    SELECT * FROM inventory_holds
    WHERE id IN (${Prisma.join([...new Set(ids)].sort())}) AND "organizationId" = ${orgId(ctx)} AND status = 'ACTIVE'
    ORDER BY id FOR UPDATE`;
}

/**
 * Gives back `amounts` (hold line id → units) of locked holds' lines: RELEASE_HOLD ledger rows moving
 * the units from on hold to available, and the lines' releasedQuantity. A line whose qtyOnHold was
 * lowered by a bucket move outside the hold gives back only what is still on hold there.
 */
async function giveBack(ctx: TxContext, holds: Map<string, InventoryHold>, lines: InventoryHoldLine[], amounts: Map<string, number>, comment: string | null) {
  const moving = lines.filter((line) => (amounts.get(line.id) ?? 0) > 0);
  const stock = await lockLines(ctx, moving.map((line) => line.stockLineId));
  const onHold = new Map([...stock].map(([id, line]) => [id, line.qtyOnHold]));
  const changes: StockChange[] = [];
  for (const line of moving) {
    const hold = holds.get(line.holdId)!;
    const units = Math.min(amounts.get(line.id)!, onHold.get(line.stockLineId) ?? 0);
    onHold.set(line.stockLineId, (onHold.get(line.stockLineId) ?? 0) - units);
    if (units > 0) {
      changes.push({ stockLineId: line.stockLineId, deltas: { ON_HOLD: -units }, transactionType: 'RELEASE_HOLD', reasonCode: hold.reasonCode, comment, sourceType: 'HOLD', sourceId: hold.id });
    }
  }
  await applyStockChangeSeries(ctx, changes);
  for (const line of moving) {
    await ctx.prisma.inventoryHoldLine.update({ where: { id: line.id }, data: { releasedQuantity: { increment: amounts.get(line.id)! } } });
  }
}

const remainingOf = (line: InventoryHoldLine) => line.quantity - line.releasedQuantity;

/**
 * Releases by itself every ACTIVE hold of the organization whose expiresAt has passed (or only `holdId`):
 * what it still holds goes back to available (RELEASE_HOLD rows) and it becomes EXPIRED. Reads call this
 * first; the hold row lock makes two reads at once write the rows once.
 */
export async function expireDueHolds(ctx: RequestContext, holdId?: string): Promise<void> {
  const due = await ctx.prisma.inventoryHold.findMany({
    where: { organizationId: orgId(ctx), status: 'ACTIVE', expiresAt: { lte: new Date() }, ...(holdId ? { id: holdId } : {}) },
    select: { id: true },
    orderBy: { id: 'asc' },
    take: EXPIRE_BATCH,
  });
  if (!due.length) return;
  await inTransaction(ctx, async (ctx) => {
    const holds = await lockActiveHolds(ctx, due.map((h) => h.id));
    if (!holds.length) return;
    const lines = await ctx.prisma.inventoryHoldLine.findMany({ where: { holdId: { in: holds.map((h) => h.id) } }, orderBy: { id: 'asc' } });
    await giveBack(ctx, new Map(holds.map((h) => [h.id, h])), lines, new Map(lines.map((line) => [line.id, remainingOf(line)])), 'Hold expired');
    await ctx.prisma.inventoryHold.updateMany({
      where: { id: { in: holds.map((h) => h.id) } },
      data: { status: 'EXPIRED', releasedAt: new Date(), releasedBy: null, releaseNote: 'Expired' },
    });
  }, TRANSACTION);
}

/**
 * Releases all or part of an ACTIVE hold (POST /api/inventory/holds/release): a partial release gives back
 * units line by line in the order they were held; the hold is RELEASED once it holds nothing. An unknown
 * or foreign holdId: 400 naming it; a hold that is not ACTIVE: 409 INVALID_STATE; more than it holds: 400.
 */
export async function releaseHold(ctx: RequestContext, input: HoldReleaseInput): Promise<HoldWithLines> {
  const organizationId = orgId(ctx);
  const known = await ctx.prisma.inventoryHold.findFirst({ where: { id: input.holdId, organizationId }, select: { id: true } });
  if (!known) throw validationError({ holdId: ['Hold not found'] });
  // An expired hold is over before anyone may release it.
  await expireDueHolds(ctx, input.holdId);
  return inTransaction(ctx, async (ctx) => {
    const [hold] = await lockActiveHolds(ctx, [input.holdId]);
    if (!hold) {
      const { status } = await ctx.prisma.inventoryHold.findUniqueOrThrow({ where: { id: input.holdId }, select: { status: true } });
      throw new DomainError('INVALID_STATE', `Cannot release a hold that is ${status}; allowed from ACTIVE`);
    }
    const lines = await ctx.prisma.inventoryHoldLine.findMany({ where: { holdId: hold.id }, orderBy: { id: 'asc' } });
    const held = lines.reduce((sum, line) => sum + remainingOf(line), 0);
    const wanted = input.quantity ?? held;
    if (wanted > held) throw validationError({ quantity: [`The hold holds ${held} units (asked ${wanted})`] });
    const amounts = new Map<string, number>();
    let left = wanted;
    for (const line of lines) {
      const units = Math.min(left, remainingOf(line));
      if (units > 0) amounts.set(line.id, units);
      left -= units;
    }
    await giveBack(ctx, new Map([[hold.id, hold]]), lines, amounts, input.note ?? null);
    const status: InventoryHoldStatus = wanted === held ? 'RELEASED' : 'ACTIVE';
    return ctx.prisma.inventoryHold.update({
      where: { id: hold.id },
      data: { status, releasedAt: status === 'RELEASED' ? new Date() : null, releasedBy: status === 'RELEASED' ? actorOf(ctx).createdBy : null, releaseNote: input.note ?? null },
      ...HOLD_WITH_LINES,
    });
  }, TRANSACTION);
}
