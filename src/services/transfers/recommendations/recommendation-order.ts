import { Prisma } from '../../../generated/prisma/client.js';

/** Most pressing first. */
export const PRIORITY_ORDER = { URGENT: 1, HIGH: 2, MEDIUM: 3, LOW: 4 } as const;

/** The order of every list: priority (URGENT first), then newest first. */
export const listOrder = (alias: string) => {
  const r = Prisma.raw(alias);
  return Prisma.sql`ORDER BY (CASE ${r}.priority WHEN 'URGENT' THEN 1 WHEN 'HIGH' THEN 2 WHEN 'MEDIUM' THEN 3 ELSE 4 END), ${r}."createdAt" DESC, ${r}.id DESC`;
};
