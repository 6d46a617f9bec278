import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

// A query parameter no contract declares is a caller's mistake (a misspelled filter would otherwise answer
// an unfiltered list), and a missing required one is named in the message, on every path.

let server: TestServer;
let a: Tenant;

beforeAll(async () => {
  server = await startTestServer();
  a = await createTenant(server.app.prisma, { capabilities: ['ai.forecasting.demand'] });
}, 60_000);
afterAll(() => server?.close());

describe('query parameters', () => {
  it('refuses misspelled ones by name, with the known ones still checked', async () => {
    const res = await server.call('GET', '/api/transfers/recommendations?stauts=PENDING&limt=1', { token: a.key });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'Unknown query parameter: stauts, limt',
      code: 'VALIDATION_ERROR',
      details: { stauts: ['Unknown query parameter'], limt: ['Unknown query parameter'] },
    });
    const spelled = await server.call('GET', '/api/transfers/recommendations?status=PENDING&limit=1', { token: a.key });
    expect(spelled.status).toBe(200);
  });

  it('refuses them on a path that takes none', async () => {
    const product = await server.call('POST', '/api/products', { token: a.key, body: { sku: 'QP-1', name: 'Query' } });
    const res = await server.call('GET', `/api/products/${product.body.id}?expand=stock`, { token: a.key });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'Unknown query parameter: expand', details: { expand: ['Unknown query parameter'] } });
  });

  it('names a missing required parameter in the message', async () => {
    for (const path of ['/api/inventory/transfers/bins', '/api/inventory/channel-location', '/api/inventory/adjustments/record-stock']) {
      const res = await server.call('GET', path, { token: a.key });
      expect(res.status, path).toBe(400);
      expect(res.body, path).toMatchObject({ error: 'locationId is required', code: 'VALIDATION_ERROR', details: { locationId: ['Required'] } });
    }
  });

  it('takes every enum value in any case, and names the values when one is not of them', async () => {
    for (const path of [
      '/api/forecast/scenarios?status=draft',
      '/api/forecast/scenarios?status=Draft&type=baseline',
      '/api/forecast/change-history?kind=publish',
      '/api/forecast/events/learned-lifts?type=promotion',
      '/api/inventory/adjustments?bucket=all',
      '/api/forecast/accuracy?source=imported&groupBy=PRODUCT',
      '/api/transfers/recommendations?status=pending&priority=urgent',
      '/api/inventory/transfers?status=draft',
    ]) {
      const res = await server.call('GET', path, { token: a.key });
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
    }
    const res = await server.call('GET', '/api/forecast/scenarios?status=drafty', { token: a.key });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual({ status: ['One of DRAFT, PUBLISHED, ARCHIVED (any case)'] });
  });
});
