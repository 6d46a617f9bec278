import { expect } from 'vitest';
import { createLocationFor } from '../../../src/services/admin/admin.js';
import { createProduct } from '../../support/api.js';
import type { Tenant } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { addStock } from '../../support/stock.js';

export const RECS = '/api/transfers/recommendations';

let n = 0;

/** Role users' tokens of a tenant (signed in through the API). */
export async function roleTokens(server: TestServer, tenant: Tenant) {
  const tokens = {} as Record<'VIEWER' | 'PLANNER' | 'MANAGER' | 'ADMIN', string>;
  for (const role of ['VIEWER', 'PLANNER', 'MANAGER', 'ADMIN'] as const) {
    const user = await tenant.userWith(role);
    const res = await server.call('POST', '/api/auth/sign-in', { body: { email: user.email, password: user.password } });
    expect(res.status).toBe(200);
    tokens[role] = res.body.token;
  }
  return tokens;
}

export interface LevelSpec {
  min: number;
  reorder: number;
  max: number;
  stock: number;
  leadDays?: number;
  forecastQuantity?: number;
  forecastPeriodDays?: number;
}

/**
 * One product stocked at several locations of the tenant, each with its inventory level (through the API)
 * and its stock (through the ledger): the locations in the order of `specs`, the first being the
 * tenant's warehouse.
 */
export async function stockedProduct(server: TestServer, tenant: Tenant, specs: LevelSpec[]) {
  const tag = `${process.pid}-${n++}`;
  const productMasterId = await createProduct(server, tenant.key, `REC-${tag}`);
  const locations: string[] = [];
  for (const [i, spec] of specs.entries()) {
    const locationId =
      i === 0 ? tenant.warehouse.id : (await createLocationFor(server.operator, { organizationId: tenant.org.id, code: `L${tag}-${i}`, name: `Store ${i}` })).id;
    locations.push(locationId);
    const level = await server.call('POST', '/api/inventory-levels', {
      token: tenant.key,
      body: {
        productMasterId,
        locationId,
        minQuantity: spec.min,
        reorderQuantity: spec.reorder,
        maxQuantity: spec.max,
        expectedLeadTimeDays: spec.leadDays ?? null,
        forecastQuantity: spec.forecastQuantity ?? null,
        forecastPeriodDays: spec.forecastPeriodDays ?? null,
      },
    });
    expect(level.status, JSON.stringify(level.body)).toBe(200);
    if (spec.stock) await addStock(server.app, tenant.org.id, { productMasterId, locationId }, { ON_HAND: spec.stock });
  }
  return { productMasterId, locations };
}

/** POST generate expecting 200. */
export async function generate(server: TestServer, token: string, body: Record<string, unknown>) {
  const res = await server.call('POST', RECS, { token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { success: boolean; created: number; updated: number; recommendations: any[] };
}

/** Units available of a product at a location, summed over its stock lines. */
export async function availableAt(server: TestServer, productMasterId: string, locationId: string) {
  const lines = await server.app.prisma.stockLine.findMany({ where: { productMasterId, locationId } });
  return lines.reduce((sum, l) => sum + l.qtyOnHand - l.qtyReserved - l.qtyOnHold - l.qtyPicked - l.qtyRecalled - l.qtyExpired, 0);
}
