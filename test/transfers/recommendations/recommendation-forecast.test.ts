import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tenant } from '../../support/fixtures.js';
import { insertWeeklyDemand } from '../../support/demand-history.js';
import { FORECASTING } from '../../support/forecasting.js';
import type { TestServer } from '../../support/server.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';
import { generate, stockedProduct } from './recommendation-setup.js';

// The forecast of record: the latest completed stored run of the most recently published scenario.
let server: TestServer;
let a: Tenant;

beforeAll(async () => {
  // The server's own forecast-run loop, polling often.
  ({ server, a } = await startServerWithTwoTenants({ FORECAST_RUN_WORKERS: '1', FORECAST_RUN_POLL_MS: '25' }, { capabilities: [FORECASTING] }));
});
afterAll(() => server?.close());

const FIRST_WEEK = '2025-01-06';

async function call(method: string, path: string, body?: unknown) {
  const res = await server.call(method, path, { token: a.key, body });
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body;
}

/** A scenario whose stored run has completed; published when asked. */
async function storedForecast(publish: boolean) {
  const scenario = await call('POST', '/api/forecast/scenarios', { name: 'Plan', type: 'BASELINE' });
  const run = await call('POST', `/api/forecast/scenarios/${scenario.id}/generate`, { horizon: 4 });
  let status = run;
  for (let i = 0; i < 400 && status.status !== 'COMPLETED' && status.status !== 'FAILED'; i++) {
    await new Promise((r) => setTimeout(r, 25));
    status = await call('GET', run.statusUrl);
  }
  expect(status.status).toBe('COMPLETED');
  if (publish) await call('POST', `/api/forecast/scenarios/${scenario.id}/publish`);
  return status;
}

describe('generate recommendations with stored forecasts', () => {
  it('uses the published stored forecast as the demand rate of levels without a forecast of their own', async () => {
    // Levels without forecastQuantity and without min/reorder/max: only a forecast can make a deficit or a surplus.
    const { productMasterId, locations } = await stockedProduct(server, a, [
      { min: 0, reorder: 0, max: 0, stock: 500, leadDays: 7 },
      { min: 0, reorder: 0, max: 0, stock: 50, leadDays: 7 },
    ]);
    // 70 a week at both locations: 10 a day.
    for (const locationId of locations) {
      await insertWeeklyDemand(server.app.prisma, { organizationId: a.org.id, productMasterId, locationId, firstWeek: FIRST_WEEK, values: Array(30).fill(70) });
    }
    expect((await generate(server, a.key, { productMasterId })).recommendations).toEqual([]);

    // A stored run of a DRAFT scenario is not the plan yet.
    await storedForecast(false);
    expect((await generate(server, a.key, { productMasterId })).recommendations).toEqual([]);

    const run = await storedForecast(true);
    expect(run.totalForecast).toBe(2 * 4 * 70);
    const { recommendations } = await generate(server, a.key, { productMasterId, unitMargin: 2 });
    // As with a level forecast of 70 a week (recommendations.test.ts): the source keeps 70 (its lead time's
    // demand) and the destination's target is 35 days of demand (350): it needs 300; 20 units at risk.
    expect(recommendations).toEqual([
      expect.objectContaining({ sourceLocationId: locations[0], destLocationId: locations[1], quantity: 300, priority: 'LOW', unitsAtRisk: 20, estimatedROI: -260 }),
    ]);
    expect(recommendations[0].reason).toMatch(/5\.0 days of demand, less than its lead time of 7 days/);
  });

  it('lets a level forecast win over the stored one', async () => {
    const { productMasterId, locations } = await stockedProduct(server, a, [
      { min: 0, reorder: 0, max: 0, stock: 500, leadDays: 7 },
      // 1 a day by the level: 50 units are 50 days of cover, no deficit, whatever the stored forecast says.
      { min: 0, reorder: 0, max: 0, stock: 50, leadDays: 7, forecastQuantity: 7, forecastPeriodDays: 7 },
    ]);
    for (const locationId of locations) {
      await insertWeeklyDemand(server.app.prisma, { organizationId: a.org.id, productMasterId, locationId, firstWeek: FIRST_WEEK, values: Array(30).fill(70) });
    }
    await storedForecast(true);
    expect((await generate(server, a.key, { productMasterId })).recommendations).toEqual([]);
  });
});
