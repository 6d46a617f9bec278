// The one encoder of ledger rows: every INSERT INTO stock_transactions is built here, from one column list.
import type { RequestContext } from '../../../context.js';
import type { TxContext } from '../../../db/transactions.js';
import { Prisma } from '../../../generated/prisma/client.js';
import type { StockLine, StockTransaction } from '../../../generated/prisma/client.js';
import { uuidv7s } from '../../../db/ids.js';
import { actorOf } from '../../actor-of.js';
import { BUCKET_COLUMN, type Bucket } from '../stock-lines/quantities.js';

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

export type LedgerRow = ReturnType<typeof ledgerRow>;

const LEDGER_COLUMNS = [
  ['organizationId', 'text'], ['stockLineId', 'text'], ['productMasterId', 'text'], ['locationId', 'text'], ['transactionType', 'text'],
  ['bucket', 'text'], ['deltaQty', 'int'], ['qtyBefore', 'int'], ['qtyAfter', 'int'], ['reasonCodeId', 'text'], ['reasonCode', 'text'],
  ['comment', 'text'], ['rootCause', 'text'], ['actorType', 'text'], ['createdBy', 'text'], ['sourceType', 'text'], ['sourceId', 'text'],
] as const satisfies readonly (readonly [keyof LedgerRow, string])[];
// Every field of a ledger row has its column here: a field added to ledgerRow alone fails to compile.
const everyFieldListed: Record<Exclude<keyof LedgerRow, (typeof LEDGER_COLUMNS)[number][0]>, never> = {};
void everyFieldListed;
const ledgerColumnList = Prisma.raw(LEDGER_COLUMNS.map(([name]) => `"${name}"`).join(', '));
const ledgerRecordType = Prisma.raw(['id text', ...LEDGER_COLUMNS.map(([name, type]) => `"${name}" ${type}`)].join(', '));
const ledgerAliases = Prisma.raw(['id', ...LEDGER_COLUMNS.map(([name]) => `"${name}"`), 'n'].join(', '));
const ledgerValues = Prisma.raw(LEDGER_COLUMNS.map(([name]) => (name === 'bucket' ? 'r.bucket::"StockBucket"' : `r."${name}"`)).join(', '));

/**
 * The INSERT of ledger rows given as a JSON array of objects (`json`, a SQL expression) in array order:
 * their seq and clock follow it. The statement can stand alone or be the body of a CTE; callers may
 * append a RETURNING clause.
 */
export function ledgerInsert(json: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`
    INSERT INTO stock_transactions (id, ${ledgerColumnList})
    SELECT r.id, ${ledgerValues}
    FROM ROWS FROM (json_to_recordset(${json}) AS (${ledgerRecordType})) WITH ORDINALITY AS r(${ledgerAliases})
    ORDER BY r.n`;
}

/**
 * One ledger row as a SQL JSON object, each field a SQL expression (for rows computed inside a
 * statement, see signed-on-hand-change.ts); an array of these fed to ledgerInsert writes them.
 */
export function ledgerRowJson(values: Record<'id' | keyof LedgerRow, Prisma.Sql>): Prisma.Sql {
  const pairs = (['id', ...LEDGER_COLUMNS.map(([name]) => name)] as const).map((name) => Prisma.sql`${Prisma.raw(`'${name}'`)}, ${values[name]}`);
  return Prisma.sql`json_build_object(${Prisma.join(pairs, ', ')})`;
}

/**
 * Ledger rows in one INSERT, in list order, the rows as one JSON parameter: Prisma's createMany handles
 * every value of every row in Node, most of a batch's time for thousands of rows. Returns the rows written, in list order.
 */
export async function insertLedgerRows(ctx: TxContext, rows: LedgerRow[]): Promise<StockTransaction[]> {
  if (!rows.length) return [];
  const { ids, insert } = ledgerRowsInsert(rows);
  const written = await ctx.prisma.$queryRaw<StockTransaction[]>`${insert} RETURNING *`;
  const byId = new Map(written.map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id!)!);
}

/** The INSERT of `rows` with new ids, the rows as one JSON parameter. */
function ledgerRowsInsert(rows: LedgerRow[]) {
  const ids = uuidv7s(rows.length);
  const json = JSON.stringify(rows.map((row, i) => ({ id: ids[i], ...row })));
  return { ids, insert: ledgerInsert(Prisma.sql`${json}::json`) };
}

/**
 * insertLedgerRows for a caller that needs nothing back: no RETURNING, whose rows (an import chunk's
 * 1,000 ledger rows of 20 columns) cost Node more to decode than the INSERT costs PostgreSQL to run.
 */
export async function writeLedgerRows(ctx: TxContext, rows: LedgerRow[]): Promise<void> {
  if (!rows.length) return;
  await ctx.prisma.$executeRaw`${ledgerRowsInsert(rows).insert}`;
}
