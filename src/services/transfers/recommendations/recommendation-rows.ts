import { Prisma } from '../../../generated/prisma/client.js';
import { MAX_INT } from '../../../kernel/input-limits.js';

/** A recommendation as every read answers it: `status` is the stored one, except that an overdue PENDING one reads EXPIRED. */
export interface TransferRecommendationRow {
  id: string;
  productMasterId: string;
  sourceLocationId: string;
  destLocationId: string;
  quantity: number;
  priority: 'URGENT' | 'HIGH' | 'MEDIUM' | 'LOW';
  status: 'PENDING' | 'APPROVED' | 'EXECUTED' | 'REJECTED' | 'EXPIRED';
  reason: string;
  estimatedROI: number | null;
  unitMargin: number | null;
  unitTransferCost: number;
  unitsAtRisk: number;
  expiresAt: Date;
  createdAt: Date;
  updatedAt: Date;
  createdBy: string;
  approvedAt: Date | null;
  approvedBy: string | null;
  approvalComment: string | null;
  rejectedAt: Date | null;
  rejectedBy: string | null;
  rejectionComment: string | null;
  executedAt: Date | null;
  executedBy: string | null;
  transferId: string | null;
}

/**
 * The database clock in UTC, as the timestamp(3) columns hold it: one clock for every instance, so that
 * whether a recommendation is overdue does not depend on which instance answers.
 */
export const NOW_UTC = Prisma.sql`(now() AT TIME ZONE 'UTC')`;

/** Today (UTC) for lot expiry: a lot expiring today still counts. */
export const TODAY_UTC = Prisma.sql`(now() AT TIME ZONE 'UTC')::date`;

/** The status a read answers: an overdue PENDING recommendation is EXPIRED before the sweep writes it. */
export const effectiveStatus = (alias: string) => {
  const r = Prisma.raw(alias);
  return Prisma.sql`(CASE WHEN ${r}.status = 'PENDING' AND ${r}."expiresAt" <= ${NOW_UTC} THEN 'EXPIRED' ELSE ${r}.status::text END)`;
};

/** The columns of a TransferRecommendationRow, from the table under `alias`. */
export const recommendationColumns = (alias: string) => {
  const r = Prisma.raw(alias);
  return Prisma.sql`${r}.id, ${r}."productMasterId", ${r}."sourceLocationId", ${r}."destLocationId", ${r}.quantity, ${r}.priority::text AS priority,
    ${effectiveStatus(alias)} AS status, ${r}.reason, ${r}."estimatedROI", ${r}."unitMargin", ${r}."unitTransferCost", ${r}."unitsAtRisk",
    ${r}."expiresAt", ${r}."createdAt", ${r}."updatedAt", ${r}."createdBy", ${r}."approvedAt", ${r}."approvedBy", ${r}."approvalComment",
    ${r}."rejectedAt", ${r}."rejectedBy", ${r}."rejectionComment", ${r}."executedAt", ${r}."executedBy", ${r}."transferId"`;
};

/**
 * Demand over some days (a rate × days, a float) as whole units a level can hold: rounded up and capped at
 * MAX_INT, so that a huge forecast asks for at most what one stock line, level or transfer line can carry
 * instead of overflowing int4.
 */
export const unitsCapped = (demand: Prisma.Sql) => Prisma.sql`LEAST(CEIL(${demand}), ${MAX_INT})::int`;

/**
 * Units of a product a location can give away now: on hand minus every part spoken for or unusable
 * (the ledger's quantity rule), leaving out lines whose lot is recalled or expired before today. A bigint:
 * several lines of a location add up past int4.
 * `where` narrows the stock lines `s` (organization first).
 */
export const availableByLocation = (where: Prisma.Sql) => Prisma.sql`
  SELECT s."productMasterId", s."locationId",
    SUM(GREATEST(0, s."qtyOnHand" - s."qtyReserved" - s."qtyOnHold" - s."qtyPicked" - s."qtyRecalled" - s."qtyExpired"))::bigint AS available
  FROM stock_lines s LEFT JOIN lots l ON l.id = s."lotId"
  WHERE ${where}
    AND (s."lotId" IS NULL OR (NOT l.recalled AND (l."expiryDate" IS NULL OR l."expiryDate" >= ${TODAY_UTC})))
  GROUP BY s."productMasterId", s."locationId"`;

/** A UUID version 7 made by the database, for rows a set-based INSERT creates (like Prisma's uuid(7)). */
export const SQL_UUID_V7 = Prisma.sql`encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
  placing substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3) FROM 1 FOR 6), 52, 1), 53, 1), 'hex')::uuid::text`;
