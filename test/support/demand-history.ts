import type { Db } from '../../src/db/database.js';

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

/** yyyy-mm-dd of the week `weeks` weeks after a Monday. */
export const weekAfter = (monday: string, weeks: number) => new Date(Date.parse(`${monday}T00:00:00Z`) + weeks * WEEK_MS).toISOString().slice(0, 10);

/**
 * Weekly demand history rows written straight to the table (long series are slow to send through the
 * import): one row per value, the first on `firstWeek` (a Monday), the next a week later, and so on.
 */
export async function insertWeeklyDemand(
  db: Db,
  series: { organizationId: string; productMasterId: string; locationId: string; channel?: string; firstWeek: string; values: number[] },
) {
  await db.demandHistory.createMany({
    data: series.values.map((actualUnits, i) => ({
      organizationId: series.organizationId,
      productMasterId: series.productMasterId,
      locationId: series.locationId,
      channel: series.channel ?? 'ALL',
      weekStart: new Date(`${weekAfter(series.firstWeek, i)}T00:00:00Z`),
      actualUnits,
      forecastUnits: actualUnits,
    })),
  });
}
