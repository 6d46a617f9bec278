import type { ForecastRun } from '../../../generated/prisma/client.js';
import { recordForecastChange } from '../scenarios/forecast-changes.js';
import type { TxContext } from '../../../db/transactions.js';

/**
 * The GENERATE row of a run that has just completed, in the transaction that completed it: totalBefore is
 * the total of the scenario's previous completed run (null when this is its first), totalAfter this run's.
 */
export async function recordGenerateChange(ctx: TxContext, run: ForecastRun) {
  const tx = ctx.prisma;
  const previous = await tx.forecastRun.findFirst({
    where: { scenarioId: run.scenarioId, organizationId: run.organizationId, status: 'COMPLETED', id: { not: run.id } },
    orderBy: [{ completedAt: 'desc' }, { id: 'desc' }],
    select: { totalForecast: true },
  });
  await recordForecastChange(ctx, {
    scenarioId: run.scenarioId,
    kind: 'GENERATE',
    productMasterId: run.productMasterId,
    locationId: run.locationId,
    channel: run.channel,
    totalBefore: previous?.totalForecast ?? null,
    totalAfter: run.totalForecast,
    note: `Forecast run ${run.id}: ${run.totalSeries} series, ${run.horizon} weeks`,
  });
}
