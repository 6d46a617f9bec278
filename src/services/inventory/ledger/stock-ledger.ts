import type { RequestContext } from '../../../context.js';
import { DomainError, notFound } from '../../../kernel/errors.js';
import { Prisma } from '../../../generated/prisma/client.js';
import type { StockLine, StockTransaction } from '../../../generated/prisma/client.js';
import { uuidv7, uuidv7s } from '../../../db/ids.js';
import { authOf, orgId } from '../../tenant.js';
import { BUCKET_COLUMN, BUCKETS, type Bucket } from './quantities.js';

/** A transaction client (prisma.$transaction callback argument). */
export type Tx = Prisma.TransactionClient;

export interface StockChange {
  stockLineId: string;
  /** Signed change per bucket; zero or absent buckets are left alone. */
  deltas: Partial<Record<Bucket, number>>;
  /** ADJUSTMENT, RECEIPT, COUNT, RESERVE, RELEASE, PICK, HOLD, RELEASE_HOLD, RECALL, EXPIRE, LOT_CORRECTION, ... */
  transactionType: string;
  reasonCodeId?: string | null;
  reasonCode?: string | null;
  comment?: string | null;
  rootCause?: string | null;
  sourceType?: string | null;
  sourceId?: string | null;
}

const col = (bucket: Bucket) => Prisma.raw(`"${BUCKET_COLUMN[bucket]}"`);

/**
 * The quantity rule (quantities.ts) as a SQL condition on the values a change would leave, `next(bucket)`
 * being the expression of a bucket's new value: every bucket at least 0, the parts within on hand.
 */
export function ruleHolds(next: (bucket: Bucket) => Prisma.Sql): Prisma.Sql {
  const nonNegative = Prisma.join(BUCKETS.map((bucket) => Prisma.sql`${next(bucket)} >= 0`), ' AND ');
  const parts = Prisma.join(BUCKETS.filter((bucket) => bucket !== 'ON_HAND').map(next), ' + ');
  return Prisma.sql`${nonNegative} AND ${parts} <= ${next('ON_HAND')}`;
}

/** The ledger's name for who made a change. */
export const actorOf = (ctx: RequestContext) => {
  const actor = authOf(ctx).actor;
  return { actorType: actor.type === 'user' ? 'USER' : 'API_KEY', createdBy: actor.id };
};

/** The ledger row of one bucket of a change, given the line as the change left it. */
export function ledgerRow(ctx: RequestContext, change: Omit<StockChange, 'stockLineId' | 'deltas'>, line: StockLine, bucket: Bucket, delta: number) {
  const qtyAfter = line[BUCKET_COLUMN[bucket]];
  return {
    organizationId: line.organizationId,
    stockLineId: line.id,
    productMasterId: line.productMasterId,
    locationId: line.locationId,
    transactionType: change.transactionType,
    bucket,
    deltaQty: delta,
    qtyBefore: qtyAfter - delta,
    qtyAfter,
    reasonCodeId: change.reasonCodeId ?? null,
    reasonCode: change.reasonCode ?? null,
    comment: change.comment ?? null,
    rootCause: change.rootCause ?? null,
    ...actorOf(ctx),
    sourceType: change.sourceType ?? null,
    sourceId: change.sourceId ?? null,
  };
}

/**
 * The only way stock quantities change. One guarded UPDATE adds the deltas in the database (never
 * read-then-write), so concurrent changes serialize on the row lock and none is lost; the WHERE clause
 * refuses a change that would break the quantity rule (see quantities.ts) and the CHECK constraint
 * backs it up. Then one ledger row per changed bucket, with the quantity before and after, in the same
 * transaction: call it inside `prisma.$transaction`.
 */
export async function applyStockChange(tx: Tx, ctx: RequestContext, change: StockChange): Promise<{ line: StockLine; transactions: StockTransaction[] }> {
  const organizationId = orgId(ctx);
  const deltas = BUCKETS.map((bucket) => ({ bucket, delta: Math.trunc(change.deltas[bucket] ?? 0) })).filter((d) => d.delta !== 0);
  if (!deltas.length) throw new DomainError('VALIDATION_ERROR', 'The change moves no quantity', { details: { quantity: ['Must not be 0'] } });

  const next = (bucket: Bucket) => {
    const delta = deltas.find((d) => d.bucket === bucket)?.delta ?? 0;
    return Prisma.sql`(${col(bucket)} + ${delta}::int)`;
  };
  const sets = Prisma.join(deltas.map(({ bucket, delta }) => Prisma.sql`${col(bucket)} = ${col(bucket)} + ${delta}::int`), ', ');

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
  const transactions = await tx.stockTransaction.createManyAndReturn({ data: rows });
  return { line, transactions };
}

/**
 * Many changes at once, for batch writers (imports), in the order they happen; a line may appear
 * several times (an order import releasing and reserving on the same lot for several orders). One
 * guarded UPDATE adds each line's summed deltas and one INSERT writes the ledger rows, one per change
 * and bucket in list order, each with the quantities before and after that change. The quantity rule is
 * checked on what the whole series leaves on each line, not between its changes: callers list changes
 * whose every step keeps the rule when the end state does (for example all decreases of a bucket before
 * its increases). If any line would break the rule nothing is written and INSUFFICIENT_STOCK is thrown;
 * callers that locked the lines (FOR UPDATE, in id order) and checked them first never see that. Call
 * it inside `prisma.$transaction`.
 */
export async function applyStockChangeSeries(tx: Tx, ctx: RequestContext, changes: StockChange[]): Promise<void> {
  const organizationId = orgId(ctx);
  const list = withDeltas(changes);
  if (!list.length) return;
  const sums = new Map<string, number[]>();
  for (const { change, d } of list) {
    const sum = sums.get(change.stockLineId) ?? sums.set(change.stockLineId, BUCKETS.map(() => 0)).get(change.stockLineId)!;
    d.forEach((delta, i) => (sum[i]! += delta));
  }
  const after = await updateLines(tx, organizationId, [...sums].map(([stockLineId, d]) => ({ stockLineId, d })));
  // Walk back from what the UPDATE left: each change left its line as it is now minus the later changes.
  const current = new Map([...after].map(([id, line]) => [id, { ...line }]));
  const left: StockLine[] = [];
  for (let i = list.length - 1; i >= 0; i--) {
    const { change, d } = list[i]!;
    const line = current.get(change.stockLineId)!;
    left[i] = { ...line };
    BUCKETS.forEach((bucket, b) => (line[BUCKET_COLUMN[bucket]] -= d[b]!));
  }
  await insertLedgerRows(tx, list.flatMap(({ change, d }, i) => ledgerRows(ctx, change, left[i]!, d)));
}

const LEDGER_COLUMNS = [
  ['organizationId', 'text'], ['stockLineId', 'text'], ['productMasterId', 'text'], ['locationId', 'text'], ['transactionType', 'text'],
  ['bucket', 'text'], ['deltaQty', 'int'], ['qtyBefore', 'int'], ['qtyAfter', 'int'], ['reasonCodeId', 'text'], ['reasonCode', 'text'],
  ['comment', 'text'], ['rootCause', 'text'], ['actorType', 'text'], ['createdBy', 'text'], ['sourceType', 'text'], ['sourceId', 'text'],
] as const satisfies readonly (readonly [keyof ReturnType<typeof ledgerRow>, string])[];
// Every field of a ledger row has its column here: a field added to ledgerRow alone fails to compile.
const everyFieldListed: Record<Exclude<keyof ReturnType<typeof ledgerRow>, (typeof LEDGER_COLUMNS)[number][0]>, never> = {};
void everyFieldListed;
const ledgerColumnList = Prisma.raw(LEDGER_COLUMNS.map(([name]) => `"${name}"`).join(', '));
const ledgerRecordType = Prisma.raw(['id text', ...LEDGER_COLUMNS.map(([name, type]) => `"${name}" ${type}`)].join(', '));
const ledgerAliases = Prisma.raw(['id', ...LEDGER_COLUMNS.map(([name]) => `"${name}"`), 'n'].join(', '));
const ledgerValues = Prisma.raw(LEDGER_COLUMNS.map(([name]) => (name === 'bucket' ? 'r.bucket::"StockBucket"' : `r."${name}"`)).join(', '));

/**
 * Ledger rows of a batch in one INSERT, in list order (their seq and clock follow it), the rows as one
 * JSON parameter: Prisma's createMany handles every value of every row in Node, most of a batch's time
 * for thousands of rows.
 */
async function insertLedgerRows(tx: Tx, rows: ReturnType<typeof ledgerRow>[]): Promise<void> {
  if (!rows.length) return;
  const ids = uuidv7s(rows.length);
  const json = JSON.stringify(rows.map((row, i) => ({ id: ids[i], ...row })));
  await tx.$executeRaw`
    INSERT INTO stock_transactions (id, ${ledgerColumnList})
    SELECT r.id, ${ledgerValues}
    FROM ROWS FROM (json_to_recordset(${json}::json) AS (${ledgerRecordType})) WITH ORDINALITY AS r(${ledgerAliases})
    ORDER BY r.n`;
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
async function updateLines(tx: Tx, organizationId: string, list: { stockLineId: string; d: number[] }[]): Promise<Map<string, StockLine>> {
  const next = (bucket: Bucket) => Prisma.sql`(s.${col(bucket)} + ${Prisma.raw(`u.d${BUCKETS.indexOf(bucket)}`)})`;
  const sets = Prisma.join(BUCKETS.map((bucket) => Prisma.sql`${col(bucket)} = ${next(bucket)}`), ', ');
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

export interface LineKey {
  productMasterId: string;
  locationId: string;
  lotId?: string | null;
  binId?: string | null;
}

export const lineKeyOf = (key: LineKey) => `${key.lotId ?? '-'}:${key.binId ?? '-'}`;

/**
 * The stock line for product, location, lot and bin, created empty when missing. Callers must have
 * checked that product, location, lot and bin belong to the caller's organization.
 */
export async function findOrCreateStockLine(tx: Tx, ctx: RequestContext, key: LineKey): Promise<StockLine> {
  const organizationId = orgId(ctx);
  const lineKey = lineKeyOf(key);
  // INSERT ... ON CONFLICT DO NOTHING: two requests creating the same line both end up with the one row.
  await tx.$executeRaw`
    INSERT INTO stock_lines (id, "organizationId", "productMasterId", "locationId", "lotId", "binId", "lineKey", "updatedAt")
    VALUES (${uuidv7()}, ${organizationId}, ${key.productMasterId}, ${key.locationId}, ${key.lotId ?? null}, ${key.binId ?? null}, ${lineKey}, now())
    ON CONFLICT ("productMasterId", "locationId", "lineKey") DO NOTHING`;
  return tx.stockLine.findUniqueOrThrow({ where: { productMasterId_locationId_lineKey: { productMasterId: key.productMasterId, locationId: key.locationId, lineKey } } });
}
