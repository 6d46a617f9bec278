import type { z } from 'zod';
import { CHANGE_HISTORY_DEFAULT_LIMIT, type forecastChangeQuery } from '../../../contracts/forecasting/scenarios/forecast-change-query.js';
import type { RequestContext } from '../../../context.js';
import type { Prisma } from '../../../generated/prisma/client.js';
import type { ForecastChangeKind } from '../../../generated/prisma/enums.js';
import { actorOf } from '../../actor-of.js';
import { type ListWindow, orgId } from '../../tenant.js';
import { checkForecastIds } from '../demand/fit-weekly-series.js';
import type { TxContext } from '../../../db/transactions.js';


/** One row of the change history, as a change of a scenario's forecast records it. */
export interface ForecastChangeRecord {
  /** Null for a change of the base forecast (an override of no scenario). */
  scenarioId: string | null;
  kind: ForecastChangeKind;
  productMasterId?: string | null;
  locationId?: string | null;
  channel?: string | null;
  periodStart?: Date | null;
  totalBefore?: number | null;
  totalAfter?: number | null;
  note?: string | null;
}

/** Writes a change-history row, in the transaction of the change it records, named after the caller. */
export function recordForecastChange(ctx: TxContext, change: ForecastChangeRecord) {
  const db = ctx.prisma;
  const { actorType, createdBy } = actorOf(ctx);
  return db.forecastChange.create({ data: { organizationId: orgId(ctx), ...change, actorType, actorId: createdBy } });
}

/** The query as its contract outputs it (parsed once, where it comes in). */
export type ForecastChangeQuery = z.output<typeof forecastChangeQuery>;

/**
 * A page of the change history, newest first: by limit and offset, or a connection's window. Filters that
 * name a scenario, product or location of no one in the organization are 404, as a path id would be.
 */
export async function forecastChangePage(ctx: RequestContext, query: ForecastChangeQuery, window?: ListWindow) {
  const organizationId = orgId(ctx);
  await checkForecastIds(ctx, query);

  const where: Prisma.ForecastChangeWhereInput = {
    organizationId,
    scenarioId: query.scenarioId,
    kind: query.kind,
    productMasterId: query.productMasterId,
    locationId: query.locationId,
    createdAt: { gte: query.from ? new Date(query.from) : undefined, lte: query.to ? new Date(query.to) : undefined },
  };
  const limit = window?.take ?? query.limit ?? CHANGE_HISTORY_DEFAULT_LIMIT;
  const offset = window?.skip ?? query.offset ?? 0;
  const [total, entries] = await Promise.all([
    ctx.prisma.forecastChange.count({ where }),
    ctx.prisma.forecastChange.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip: offset, take: limit }),
  ]);
  return { entries, total, limit, offset, hasMore: offset + entries.length < total };
}
