import { expect } from 'vitest';
import type { Tenant } from './fixtures.js';

/** A GET of one forecasting path: its query string and the token to send. */
type Get = (query: string, token?: string) => Promise<{ status: number; body: any }>;

export const FORECASTING = 'ai.forecasting.demand';

/** Each query is 400 VALIDATION_ERROR with exactly these details. */
export async function expectValidationDetails(get: Get, cases: [string, Record<string, string[]>][]) {
  for (const [query, details] of cases) {
    const res = await get(query);
    expect(res.status, query).toBe(400);
    expect(res.body, query).toEqual({ error: expect.any(String), code: 'VALIDATION_ERROR', details });
  }
}

/** Product and location filters that are unknown or another organization's (`theirProduct`, `their.warehouse`) are 404 NOT_FOUND. */
export async function expectForeignFiltersNotFound(get: Get, theirProduct: string, their: Tenant) {
  for (const query of [`?productMasterId=${theirProduct}`, `?locationId=${their.warehouse.id}`, '?productMasterId=nope', '?locationId=nope']) {
    const res = await get(query);
    expect(res.status, query).toBe(404);
    expect(res.body.code, query).toBe('NOT_FOUND');
  }
}

/**
 * The forecasting gates, in their order: an organization without the plan capability is 403
 * FEATURE_NOT_ENABLED; a key without forecast.read is 403 INSUFFICIENT_SCOPE; a forecast:read key gets `readQuery`.
 */
export async function expectForecastReadGates(get: Get, withoutPlan: Tenant, tenant: Tenant, readQuery = '') {
  const noPlan = await get('', withoutPlan.key);
  expect(noPlan.status).toBe(403);
  expect(noPlan.body).toMatchObject({ code: 'FEATURE_NOT_ENABLED', feature: FORECASTING });
  const noScope = await get('', await tenant.keyWith(['inventory:read']));
  expect(noScope.status).toBe(403);
  expect(noScope.body.code).toBe('INSUFFICIENT_SCOPE');
  expect((await get(readQuery, await tenant.keyWith(['forecast:read']))).status).toBe(200);
}
