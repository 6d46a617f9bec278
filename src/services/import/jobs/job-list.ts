import type { RequestContext } from '../../../context.js';
import type { z } from 'zod';
import { createdWindow, type importJobFilter } from '../../../contracts/import/import-job-list.js';
import type { Prisma } from '../../../generated/prisma/client.js';
import { orgId } from '../../tenant.js';

export type ImportJobFilter = z.output<typeof importJobFilter>;

function jobsWhere(ctx: RequestContext, filter: ImportJobFilter): Prisma.ImportJobWhereInput {
  const created = createdWindow(filter);
  return {
    organizationId: orgId(ctx),
    ...(filter.status && { state: filter.status }),
    ...(filter.kind && { kind: filter.kind }),
    ...(Object.keys(created).length && { createdAt: created }),
  };
}

/** The organization's import jobs matching the filter, newest first (ids are time-ordered); `query` pages. */
export function listImportJobs(ctx: RequestContext, filter: ImportJobFilter, query: object = {}) {
  return ctx.prisma.importJob.findMany({ ...query, where: jobsWhere(ctx, filter), orderBy: { id: 'desc' } });
}

export function countImportJobs(ctx: RequestContext, filter: ImportJobFilter) {
  return ctx.prisma.importJob.count({ where: jobsWhere(ctx, filter) });
}
