import { expect } from 'vitest';
import type { Tenant } from '../support/fixtures.js';
import type { TestServer } from '../support/server.js';

/** REST calls of a tenant's, and a wait on the evaluator by polling the API with a deadline. */
export function alertCalls(server: TestServer, tenant: Tenant) {
  const call = (method: string, path: string, body?: unknown, token = tenant.key) => server.call(method, path, { token, body });
  return {
    call,
    /** GET /api/alerts?<query> until `done` holds for its alerts (10 s at most); answers them. */
    async until(query: string, done: (alerts: any[]) => boolean, what: string) {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const res = await call('GET', `/api/alerts?${query}`);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        if (done(res.body.data)) return res.body.data as any[];
        if (Date.now() > deadline) throw new Error(`${what}: not within 10 s; last answer ${JSON.stringify(res.body.data)}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async rule(body: Record<string, unknown>) {
      const res = await call('POST', '/api/alerts/rules', body);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body as { id: string };
    },
    async product(sku: string) {
      const res = await call('POST', '/api/products', { sku, name: sku });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.id as string;
    },
    async level(productMasterId: string, minQuantity: number, locationId = tenant.warehouse.id) {
      const res = await call('POST', '/api/inventory-levels', { productMasterId, locationId, minQuantity, reorderQuantity: minQuantity, maxQuantity: minQuantity * 10 });
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    },
    async adjust(inventoryItemId: string, delta: number) {
      const res = await call('POST', '/api/inventory/adjust', { inventoryItemId, delta, reasonCodeId: delta < 0 ? 'DAMAGED' : 'FOUND' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    },
  };
}
