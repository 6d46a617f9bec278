import { expect } from 'vitest';
import type { Db } from '../../src/db/transactions.js';
import { BUCKET_COLUMN, BUCKETS } from '../../src/services/inventory/stock-lines/quantities.js';

/**
 * What the ledger and the stock lines disagree on, read with SQL from the test database: for each
 * stock line (all of them, or `lineIds`) and bucket, the ledger's deltas must sum to the line's
 * quantity, each row's after must be its before plus its delta, and each row (in seq order) must
 * start where the line's previous row of that bucket ended (the first at 0).
 */
export async function ledgerImbalances(db: Db, lineIds?: string[]): Promise<string[]> {
  const only = lineIds ? 'WHERE s.id = ANY($1::text[])' : '';
  const sums = BUCKETS.map((bucket) => `coalesce(sum(t."deltaQty") FILTER (WHERE t.bucket = '${bucket}'), 0)::int AS "${bucket}"`).join(', ');
  const quantities = BUCKETS.map((bucket) => `s."${BUCKET_COLUMN[bucket]}" AS "line_${bucket}"`).join(', ');
  const lines = await db.$queryRawUnsafe<Record<string, string | number>[]>(
    `SELECT s.id, ${quantities}, ${sums} FROM stock_lines s LEFT JOIN stock_transactions t ON t."stockLineId" = s.id ${only} GROUP BY s.id ORDER BY s.id`,
    ...(lineIds ? [lineIds] : []),
  );
  const found = lines.flatMap((line) =>
    BUCKETS.filter((bucket) => Number(line[`line_${bucket}`]) !== Number(line[bucket])).map(
      (bucket) => `line ${line.id} ${bucket}: quantity ${line[`line_${bucket}`]}, ledger sum ${line[bucket]}`,
    ),
  );
  const rows = await db.$queryRawUnsafe<{ id: string; stockLineId: string; bucket: string; deltaQty: number; qtyBefore: number; qtyAfter: number; previous: number }[]>(
    `SELECT * FROM (
       SELECT t.id, t."stockLineId", t.bucket::text AS bucket, t."deltaQty", t."qtyBefore", t."qtyAfter",
              coalesce(lag(t."qtyAfter") OVER (PARTITION BY t."stockLineId", t.bucket ORDER BY t.seq), 0) AS previous
       FROM stock_transactions t JOIN stock_lines s ON s.id = t."stockLineId" ${only}
     ) r WHERE r."qtyAfter" <> r."qtyBefore" + r."deltaQty" OR r."qtyBefore" <> r.previous`,
    ...(lineIds ? [lineIds] : []),
  );
  for (const row of rows) {
    found.push(`line ${row.stockLineId} ${row.bucket} row ${row.id}: ${row.qtyBefore} ${row.deltaQty >= 0 ? '+' : ''}${row.deltaQty} = ${row.qtyAfter}, previous row ended at ${row.previous}`);
  }
  return found;
}

/** Fails when the ledger does not account for the quantities of the stock lines (see ledgerImbalances). */
export async function expectLedgerBalanced(db: Db, lineIds?: string[]): Promise<void> {
  expect(await ledgerImbalances(db, lineIds)).toEqual([]);
}
