import { Prisma } from '../../generated/prisma/client.js';
import { escapeLike } from '../search.js';
import { createdWindow, numberIn } from './stock-request-queries.js';

// createdAt is a timestamp without time zone holding UTC.
const utc = (date: Date) => Prisma.sql`(${date.toISOString()}::timestamptz AT TIME ZONE 'UTC')`;

/** Filters the reports take: the list's, and (the dashboard's) a location either side of the request. */
export interface RequestFilters {
  status?: string[];
  priority?: string[];
  requestingLocationId?: string;
  supplyingLocationId?: string;
  locationId?: string;
  requesterId?: string;
  search?: string;
  from?: string;
  to?: string;
}

/**
 * The list's filters (listStockRequests) as a condition on `stock_requests r` of the organization, for the
 * statements that aggregate over requests (by category, dashboard): the same meaning, written in SQL.
 */
export function requestFilterSql(organizationId: string, f: RequestFilters): Prisma.Sql {
  const parts = [Prisma.sql`r."organizationId" = ${organizationId}`];
  if (f.status?.length) parts.push(Prisma.sql`r.status::text IN (${Prisma.join(f.status)})`);
  if (f.priority?.length) parts.push(Prisma.sql`r.priority::text IN (${Prisma.join(f.priority)})`);
  if (f.requestingLocationId) parts.push(Prisma.sql`r."requestingLocationId" = ${f.requestingLocationId}`);
  if (f.supplyingLocationId) parts.push(Prisma.sql`r."supplyingLocationId" = ${f.supplyingLocationId}`);
  if (f.locationId) parts.push(Prisma.sql`(r."requestingLocationId" = ${f.locationId} OR r."supplyingLocationId" = ${f.locationId})`);
  if (f.requesterId) parts.push(Prisma.sql`r."requesterId" = ${f.requesterId}`);
  if (f.search) {
    const number = numberIn(f.search);
    const reason = Prisma.sql`r.reason ILIKE ${`%${escapeLike(f.search)}%`}`;
    parts.push(number != null ? Prisma.sql`(${reason} OR r.number = ${number})` : reason);
  }
  const { since, before } = createdWindow(f);
  if (since) parts.push(Prisma.sql`r."createdAt" >= ${utc(since)}`);
  if (before) parts.push(Prisma.sql`r."createdAt" < ${utc(before)}`);
  return Prisma.join(parts, ' AND ');
}
