// The one writer of stock and the one door to the ledger: every change of a stock line's quantities
// and every ledger row goes through this module, the only file of inventory/ledger/ that code outside
// the folder imports, so that the quantity rule, the row locks and the ledger are kept in one place.
// test/architecture/single-writer.test.ts holds that nothing else writes stock_lines or
// stock_transactions; test/architecture/ledger-door.test.ts that nothing imports past this door.
import type { RequestContext } from '../../../context.js';
import type { TxContext } from '../../../db/transactions.js';
import { DomainError, notFound } from '../../../kernel/errors.js';
import { Prisma } from '../../../generated/prisma/client.js';
import type { StockLine, StockTransaction } from '../../../generated/prisma/client.js';
import { orgId } from '../../tenant.js';
import { insertLedgerRows, ledgerRow, type StockChange, writeLedgerRows } from './ledger-rows.js';
import { bucketColumn, ruleHolds } from './quantity-rule-sql.js';
import { BUCKET_COLUMN, BUCKETS, type Bucket } from '../stock-lines/quantities.js';

export type { StockChange } from './ledger-rows.js';
export { addToOnHand, type SignedOnHandChange } from './signed-on-hand-change.js';
export { createStockLines, findOrCreateStockLine, lineKeyOf, type LineKey } from './stock-line-creation.js';
export { lockLines, type LineState } from './row-locks.js';

/**
 * The single-change writer. One guarded UPDATE adds the deltas in the database (never read-then-write),
 * so concurrent changes serialize on the row lock and none is lost; the WHERE clause refuses a change
 * that would break the quantity rule (see quantities.ts) and the CHECK constraint backs it up. Then one
 * ledger row per changed bucket, with the quantity before and after, in the context's transaction.
 */
export async function applyStockChange(ctx: TxContext, change: StockChange): Promise<{ line: StockLine; transactions: StockTransaction[] }> {
  const tx = ctx.prisma;
  const organizationId = orgId(ctx);
  const deltas = BUCKETS.map((bucket) => ({ bucket, delta: Math.trunc(change.deltas[bucket] ?? 0) })).filter((d) => d.delta !== 0);
  if (!deltas.length) throw new DomainError('VALIDATION_ERROR', 'The change moves no quantity', { details: { quantity: ['Must not be 0'] } });

  const next = (bucket: Bucket) => {
    const delta = deltas.find((d) => d.bucket === bucket)?.delta ?? 0;
    return Prisma.sql`(${bucketColumn(bucket)} + ${delta}::int)`;
  };
  const sets = Prisma.join(deltas.map(({ bucket, delta }) => Prisma.sql`${bucketColumn(bucket)} = ${bucketColumn(bucket)} + ${delta}::int`), ', ');

  const [line] = await tx.$queryRaw<StockLine[]>`
    UPDATE stock_lines SET ${sets}, "updatedAt" = now()
    WHERE id = ${change.stockLineId} AND "organizationId" = ${organizationId} AND ${ruleHolds(next)}
    RETURNING *`;
  if (!line) {
    const exists = await tx.stockLine.findFirst({ where: { id: change.stockLineId, organizationId }, select: { id: true } });
    if (!exists) throw notFound('Inventory item');
    throw new DomainError('INSUFFICIENT_STOCK', 'Not enough stock: the change would take a quantity below zero or below what is reserved, held, picked, recalled or expired', {
      details: { quantity: ['Exceeds what the stock line allows'] },
    });
  }

  const rows = deltas.map(({ bucket, delta }) => ledgerRow(ctx, change, line, bucket, delta));
  const transactions = await insertLedgerRows(ctx, rows);
  return { line, transactions };
}

/**
 * The series writer: many changes at once, for batch writers (imports, reservations), in the order they
 * happen; a line may appear several times (an order import releasing and reserving on the same lot for
 * several orders). One guarded UPDATE adds each line's summed deltas and one INSERT writes the ledger
 * rows, one per change and bucket in list order, each with the quantities before and after that change.
 * The quantity rule is checked on what the whole series leaves on each line, not between its changes:
 * callers list changes whose every step keeps the rule when the end state does (for example all
 * decreases of a bucket before its increases). If any line would break the rule nothing is written and
 * INSUFFICIENT_STOCK is thrown; callers that locked the lines (FOR UPDATE, in id order) and checked them
 * first never see that. Runs in the context's transaction.
 */
export async function applyStockChangeSeries(ctx: TxContext, changes: StockChange[]): Promise<void> {
  const list = withDeltas(changes);
  if (!list.length) return;
  const sums = new Map<string, number[]>();
  for (const { change, d } of list) {
    const sum = sums.get(change.stockLineId) ?? sums.set(change.stockLineId, BUCKETS.map(() => 0)).get(change.stockLineId)!;
    d.forEach((delta, i) => (sum[i]! += delta));
  }
  const after = await updateLines(ctx, [...sums].map(([stockLineId, d]) => ({ stockLineId, d })));
  // Walk back from what the UPDATE left: each change left its line as it is now minus the later changes.
  const current = new Map([...after].map(([id, line]) => [id, { ...line }]));
  const left: StockLine[] = [];
  for (let i = list.length - 1; i >= 0; i--) {
    const { change, d } = list[i]!;
    const line = current.get(change.stockLineId)!;
    left[i] = { ...line };
    BUCKETS.forEach((bucket, b) => (line[BUCKET_COLUMN[bucket]] -= d[b]!));
  }
  await writeLedgerRows(ctx, list.flatMap(({ change, d }, i) => ledgerRows(ctx, change, left[i]!, d)));
}

/** The changes that move something, each with its deltas in BUCKETS order. */
const withDeltas = (changes: StockChange[]) =>
  changes.map((change) => ({ change, d: BUCKETS.map((bucket) => Math.trunc(change.deltas[bucket] ?? 0)) })).filter(({ d }) => d.some((delta) => delta !== 0));

/** The ledger rows of one change (one per moved bucket), given the line as the change left it. */
const ledgerRows = (ctx: RequestContext, change: StockChange, line: StockLine, d: number[]) =>
  BUCKETS.flatMap((bucket, i) => (d[i] ? [ledgerRow(ctx, change, line, bucket, d[i]!)] : []));

/**
 * One guarded UPDATE adding deltas (BUCKETS order) to distinct lines; the lines as it left them, by id.
 * INSUFFICIENT_STOCK, with nothing written, if any line would break the quantity rule.
 */
async function updateLines(ctx: TxContext, list: { stockLineId: string; d: number[] }[]): Promise<Map<string, StockLine>> {
  const tx = ctx.prisma;
  const organizationId = orgId(ctx);
  const next = (bucket: Bucket) => Prisma.sql`(s.${bucketColumn(bucket)} + ${Prisma.raw(`u.d${BUCKETS.indexOf(bucket)}`)})`;
  const sets = Prisma.join(BUCKETS.map((bucket) => Prisma.sql`${bucketColumn(bucket)} = ${next(bucket)}`), ', ');
  const arrays = Prisma.join(BUCKETS.map((_, i) => Prisma.sql`${list.map((c) => c.d[i]!)}::int[]`), ', ');
  const updated = await tx.$queryRaw<StockLine[]>`
    UPDATE stock_lines s SET ${sets}, "updatedAt" = now()
    FROM unnest(${list.map((c) => c.stockLineId)}::text[], ${arrays}) AS u(id, d0, d1, d2, d3, d4, d5)
    WHERE s.id = u.id AND s."organizationId" = ${organizationId} AND ${ruleHolds(next)}
    RETURNING s.*`;
  if (updated.length !== list.length) {
    throw new DomainError('INSUFFICIENT_STOCK', 'Not enough stock: a change would take a quantity below zero or below what is reserved, held, picked, recalled or expired');
  }
  return new Map(updated.map((line) => [line.id, line]));
}
