import { directRows } from '../../../db/direct-rows.js';
import type { RequestContext } from '../../../context.js';
import type { StockTransaction } from '../../../generated/prisma/client.js';
import { uuidv7 } from '../../../db/ids.js';
import { Prisma } from '../../../generated/prisma/client.js';
import { orgId } from '../../tenant.js';
import { actorOf } from '../../actor-of.js';
import { ledgerInsert, ledgerRow, ledgerRowJson } from './ledger-rows.js';
import type { Bucket } from '../stock-lines/quantities.js';
import { bucketColumn, ruleHolds } from './quantity-rule-sql.js';
import type { LineState } from './row-locks.js';

export interface SignedOnHandChange {
  inventoryItemId: string;
  delta: number;
  /** A reason code's id, or its code in any case; it must be active and allow the direction of `delta`. */
  reasonCodeId: string;
  comment: string | null;
  rootCause: string | null;
}

type Row = LineState & { transactionCreatedAt: Date; transactionSeq: bigint; reasonId: string; reasonCodeText: string };

/** New values of a signed on-hand change: on hand moves by `delta`, the other buckets stay. */
const onHandBy = (delta: number) => (bucket: Bucket) =>
  bucket === 'ON_HAND' ? Prisma.sql`(s."qtyOnHand" + ${delta}::int)` : Prisma.sql`s.${bucketColumn(bucket)}`;

/**
 * The one-statement signed adjustment: adds `delta` to a line's on hand (transaction type ADJUSTMENT).
 * The reason code lookup (active, of the organization, allowing this direction), the guarded UPDATE and
 * the ledger INSERT fed by its RETURNING run as one data-modifying CTE. The UPDATE takes the row lock and
 * adds to the current value, so concurrent adjustments of one line serialize and none is lost, and the
 * ledger row's before and after come from the very row version it wrote. Nothing is read first, so the
 * context's handle need not be an interactive transaction: the statement either changes the line and writes its ledger
 * row, or does neither and returns null (unknown reason or line, or the quantity rule refuses it).
 */
export async function addToOnHand(ctx: RequestContext, input: SignedOnHandChange): Promise<{ line: LineState; transaction: StockTransaction } | null> {
  const organizationId = orgId(ctx);
  const { delta } = input;
  const transactionId = uuidv7();
  const sourceId = uuidv7();
  const { actorType, createdBy } = actorOf(ctx);
  // The ledger row, built in the statement from the line the UPDATE returned.
  const entryJson = ledgerRowJson({
    id: Prisma.sql`${transactionId}::text`,
    organizationId: Prisma.sql`${organizationId}::text`,
    stockLineId: Prisma.sql`line.id`,
    productMasterId: Prisma.sql`line."productMasterId"`,
    locationId: Prisma.sql`line."locationId"`,
    transactionType: Prisma.sql`'ADJUSTMENT'::text`,
    bucket: Prisma.sql`'ON_HAND'::text`,
    deltaQty: Prisma.sql`${delta}::int`,
    qtyBefore: Prisma.sql`line."qtyOnHand" - ${delta}::int`,
    qtyAfter: Prisma.sql`line."qtyOnHand"`,
    reasonCodeId: Prisma.sql`line."reasonId"`,
    reasonCode: Prisma.sql`line."reasonCodeText"`,
    comment: Prisma.sql`${input.comment}::text`,
    rootCause: Prisma.sql`${input.rootCause}::text`,
    actorType: Prisma.sql`${actorType}::text`,
    createdBy: Prisma.sql`${createdBy}::text`,
    sourceType: Prisma.sql`'ADJUSTMENT'::text`,
    sourceId: Prisma.sql`${sourceId}::text`,
  });
  const rows = await directRows<Row>(ctx, Prisma.sql`
    WITH reason AS (
      SELECT id, code FROM reason_codes
      WHERE "organizationId" = ${organizationId} AND active
        AND (id = ${input.reasonCodeId} OR lower(code) = lower(${input.reasonCodeId}))
        AND (direction = 'ANY' OR (direction = 'INCREASE' AND ${delta}::int > 0) OR (direction = 'DECREASE' AND ${delta}::int < 0))
      ORDER BY id = ${input.reasonCodeId} DESC
      LIMIT 1
    ), line AS (
      UPDATE stock_lines s SET "qtyOnHand" = s."qtyOnHand" + ${delta}::int, "updatedAt" = now()
      FROM reason
      WHERE s.id = ${input.inventoryItemId} AND s."organizationId" = ${organizationId}
        AND ${ruleHolds(onHandBy(delta))}
      RETURNING s.*, reason.id AS "reasonId", reason.code AS "reasonCodeText"
    ), entry AS (${ledgerInsert(Prisma.sql`(SELECT json_agg(${entryJson}) FROM line)`)}
      RETURNING "createdAt", seq
    )
    SELECT line.*, entry."createdAt" AS "transactionCreatedAt", entry.seq AS "transactionSeq",
           l.code AS "lotCode", l."expiryDate" AS "expiryDate", l.recalled AS "lotRecalled", b.code AS "binCode"
    FROM line CROSS JOIN entry
    LEFT JOIN lots l ON l.id = line."lotId"
    LEFT JOIN bins b ON b.id = line."binId"`);
  const row = rows[0];
  if (!row) return null;

  const { transactionCreatedAt, transactionSeq, reasonId, reasonCodeText, ...line } = row;
  // The ledger row the statement wrote, built from the same values.
  const change = { transactionType: 'ADJUSTMENT', reasonCodeId: reasonId, reasonCode: reasonCodeText, comment: input.comment, rootCause: input.rootCause, sourceType: 'ADJUSTMENT', sourceId };
  const transaction: StockTransaction = { ...ledgerRow(ctx, change, line, 'ON_HAND', delta), id: transactionId, createdAt: transactionCreatedAt, seq: transactionSeq };
  return { line, transaction };
}
