import type { RequestContext } from '../../../context.js';
import { Prisma } from '../../../generated/prisma/client.js';
import type { StockLine } from '../../../generated/prisma/client.js';
import { uuidv7s } from '../../../db/ids.js';
import { authOf } from '../../tenant.js';
import { BUCKET_COLUMN, type Bucket } from './quantities.js';
import type { StockChange, Tx } from './stock-ledger.js';

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
 * Ledger rows of a batch in one INSERT, in list order (their seq and clock follow it), the rows as one
 * JSON parameter: Prisma's createMany handles every value of every row in Node, most of a batch's time
 * for thousands of rows.
 */
export async function insertLedgerRows(tx: Tx, rows: LedgerRow[]): Promise<void> {
  if (!rows.length) return;
  const ids = uuidv7s(rows.length);
  const json = JSON.stringify(rows.map((row, i) => ({ id: ids[i], ...row })));
  await tx.$executeRaw`
    INSERT INTO stock_transactions (id, ${ledgerColumnList})
    SELECT r.id, ${ledgerValues}
    FROM ROWS FROM (json_to_recordset(${json}::json) AS (${ledgerRecordType})) WITH ORDINALITY AS r(${ledgerAliases})
    ORDER BY r.n`;
}
