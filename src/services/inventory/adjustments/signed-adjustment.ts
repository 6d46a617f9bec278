import type { RequestContext } from '../../../context.js';
import { DomainError, validationError } from '../../../kernel/errors.js';
import type { StockTransaction } from '../../../generated/prisma/client.js';
import { uuidv7 } from '../../../db/ids.js';
import { Prisma } from '../../../generated/prisma/client.js';
import { orgId } from '../../tenant.js';
import {
  checkOnHandFloor,
  checkReasonDirection,
  findReasonCode,
  type LineState,
  outOfRange,
  rootCauseProblem,
  rootCauseThreshold,
  signed,
  unknownInBody,
} from '../ledger/stock-change-toolkit.js';
import { BUCKET_COLUMN, type Bucket } from '../ledger/quantities.js';
import { actorOf, ledgerRow, ruleHolds } from '../ledger/stock-ledger.js';

export interface SignedAdjustment {
  inventoryItemId: string;
  delta: number;
  reasonCodeId: string;
  comment: string | null;
  rootCause: string | null;
}

type Row = LineState & { transactionCreatedAt: Date; transactionSeq: bigint; reasonId: string; reasonCodeText: string };

/**
 * Adds a signed amount to a line's on hand in one statement: the reason code lookup (active, of the
 * organization, allowing this direction), the guarded UPDATE and the ledger INSERT fed by its RETURNING
 * run as one data-modifying CTE. The UPDATE takes the row lock and adds to the current value, so
 * concurrent adjustments of one line serialize and none is lost, and the ledger row's before and after
 * come from the very row version it wrote. Nothing is read first, so no interactive transaction is needed:
 * the statement either changes the line and writes its ledger row, or does neither.
 */
export async function applySignedAdjustment(ctx: RequestContext, input: SignedAdjustment) {
  const problem = rootCauseProblem(await rootCauseThreshold(ctx.prisma, ctx), input.delta, input.rootCause);
  if (problem) {
    await diagnose(ctx, input);
    throw validationError({ rootCause: [problem] });
  }
  // A refusal whose checks all pass on a second look means the line changed in between: try again.
  for (let attempt = 1; ; attempt++) {
    const result = await tryAdjustment(ctx, input);
    if (result) return result;
    await diagnose(ctx, input);
    if (attempt === 3) throw new DomainError('CONFLICT', 'The stock line kept changing while the adjustment was applied; retry the request');
  }
}

/** New values of a signed on-hand change: on hand moves by `delta`, the other buckets stay. */
const onHandBy = (delta: number) => (bucket: Bucket) =>
  bucket === 'ON_HAND' ? Prisma.sql`(s."qtyOnHand" + ${delta}::int)` : Prisma.sql`s.${Prisma.raw(`"${BUCKET_COLUMN[bucket]}"`)}`;

async function tryAdjustment(ctx: RequestContext, input: SignedAdjustment) {
  const organizationId = orgId(ctx);
  const { delta } = input;
  const transactionId = uuidv7();
  const sourceId = uuidv7();
  const { actorType, createdBy } = actorOf(ctx);
  const rows = await ctx.prisma.$queryRaw<Row[]>`
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
    ), entry AS (
      INSERT INTO stock_transactions (id, "organizationId", "stockLineId", "productMasterId", "locationId", "transactionType", bucket,
        "deltaQty", "qtyBefore", "qtyAfter", "reasonCodeId", "reasonCode", comment, "rootCause", "actorType", "createdBy", "sourceType", "sourceId")
      SELECT ${transactionId}, ${organizationId}, line.id, line."productMasterId", line."locationId", 'ADJUSTMENT', 'ON_HAND'::"StockBucket",
        ${delta}::int, line."qtyOnHand" - ${delta}::int, line."qtyOnHand", line."reasonId", line."reasonCodeText", ${input.comment}, ${input.rootCause},
        ${actorType}, ${createdBy}, 'ADJUSTMENT', ${sourceId}
      FROM line
      RETURNING "createdAt", seq
    )
    SELECT line.*, entry."createdAt" AS "transactionCreatedAt", entry.seq AS "transactionSeq",
           l.code AS "lotCode", l."expiryDate" AS "expiryDate", l.recalled AS "lotRecalled", b.code AS "binCode"
    FROM line CROSS JOIN entry
    LEFT JOIN lots l ON l.id = line."lotId"
    LEFT JOIN bins b ON b.id = line."binId"`.catch(outOfRange('delta'));
  const row = rows[0];
  if (!row) return null;

  const { transactionCreatedAt, transactionSeq, reasonId, reasonCodeText, ...line } = row;
  // The ledger row the statement wrote, built from the same values.
  const change = { transactionType: 'ADJUSTMENT', reasonCodeId: reasonId, reasonCode: reasonCodeText, comment: input.comment, rootCause: input.rootCause, sourceType: 'ADJUSTMENT', sourceId };
  const transaction: StockTransaction = { ...ledgerRow(ctx, change, line, 'ON_HAND', delta), id: transactionId, createdAt: transactionCreatedAt, seq: transactionSeq };
  return {
    success: true as const,
    transaction,
    inventoryItem: line as LineState,
    message: `Adjusted on hand by ${signed(delta)} (from ${transaction.qtyBefore} to ${transaction.qtyAfter})`,
  };
}

/**
 * Why an adjustment cannot be made, checked in the order a caller fixes things: the reason code, the
 * line, the quantity rule, the reason's direction. Throws the first problem; returns when there is none.
 */
async function diagnose(ctx: RequestContext, input: SignedAdjustment): Promise<void> {
  const reason = await findReasonCode(ctx.prisma, ctx, input.reasonCodeId, 'reasonCodeId');
  const line = await ctx.prisma.stockLine.findFirst({ where: { id: input.inventoryItemId, organizationId: orgId(ctx) } });
  if (!line) throw unknownInBody('inventoryItemId', 'Inventory item');
  checkOnHandFloor(line, line.qtyOnHand + input.delta, 'delta');
  checkReasonDirection(reason, input.delta, 'reasonCodeId');
}
