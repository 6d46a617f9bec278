import type { RequestContext } from '../../../context.js';
import { directRows } from '../../../db/direct-rows.js';
import { Prisma, type ImportRowError } from '../../../generated/prisma/client.js';
import { countPerParentSql, countsByParent } from '../../per-parent-sql.js';

// Row errors are read through the job they belong to, which the caller found in its own organization: these
// statements name the jobs by key and read those jobs' errors only (by the index on jobId, rowNumber), never
// the table as a whole, which holds every organization's errors.

/** How many row errors each of these jobs has recorded. */
export async function countRowErrorsOfJobs(ctx: RequestContext, jobIds: readonly string[]): Promise<Map<string, number>> {
  const sql = countPerParentSql({ parentIds: jobIds, from: 'import_row_errors e', alias: 'e', parentColumn: 'jobId', conditions: [] });
  return countsByParent(await directRows(ctx, sql));
}

/** The first `take` row errors of each of these jobs, in row order: one statement, each job's list limited where it is read. */
export async function firstRowErrorsOfJobs(ctx: RequestContext, jobIds: readonly string[], take: number): Promise<Map<string, ImportRowError[]>> {
  const rows = await directRows<ImportRowError>(
    ctx,
    Prisma.sql`
      SELECT e.* FROM unnest(${[...jobIds]}::text[]) AS j(id)
      CROSS JOIN LATERAL (
        SELECT r.id, r."jobId", r."rowNumber", r.field, r.message, r."createdAt" FROM import_row_errors r
        WHERE r."jobId" = j.id ORDER BY r."rowNumber", r.id LIMIT ${take}
      ) e
      ORDER BY e."jobId", e."rowNumber", e.id`,
  );
  const byJob = new Map<string, ImportRowError[]>(jobIds.map((id) => [id, []]));
  for (const row of rows) byJob.get(row.jobId)?.push(row);
  return byJob;
}
