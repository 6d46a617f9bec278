import { Prisma } from '../../../generated/prisma/client.js';
import { BUCKET_COLUMN, BUCKETS, PARTS, type Bucket } from '../stock-lines/quantities.js';

/** A bucket's column on stock_lines, quoted for SQL. */
export const bucketColumn = (bucket: Bucket) => Prisma.raw(`"${BUCKET_COLUMN[bucket]}"`);

/**
 * The quantity rule (stock-lines/quantities.ts) as a SQL condition on the values a change would leave,
 * `next(bucket)` being the expression of a bucket's new value: every bucket at least 0, the parts within on hand.
 */
export function ruleHolds(next: (bucket: Bucket) => Prisma.Sql): Prisma.Sql {
  const nonNegative = Prisma.join(BUCKETS.map((bucket) => Prisma.sql`${next(bucket)} >= 0`), ' AND ');
  const parts = Prisma.join(PARTS.map(next), ' + ');
  return Prisma.sql`${nonNegative} AND ${parts} <= ${next('ON_HAND')}`;
}
