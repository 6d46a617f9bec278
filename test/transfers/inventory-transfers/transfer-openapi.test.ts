import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tenant } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';
import { RECS } from '../recommendations/recommendation-setup.js';

// The machine-readable description of the transfer paths says what the paths do: the Limits' defaults,
// both spellings of the status filter, and the bodies they accept.
let server: TestServer;
let a: Tenant;
let doc: any;

beforeAll(async () => {
  ({ server, a } = await startServerWithTwoTenants());
  doc = (await server.call('GET', '/api/openapi.json')).body;
});
afterAll(() => server?.close());

const param = (path: string, name: string) => doc.paths[path].get.parameters.find((p: { name: string }) => p.name === name);

describe('OpenAPI of the transfer lists', () => {
  it('documents limit default 50 (at most 100) and offset default 0, as the paths apply them', async () => {
    for (const path of ['/transfers/recommendations', '/transfers/recommendations/pending', '/inventory/transfers']) {
      expect(param(path, 'limit').schema, path).toMatchObject({ default: 50, minimum: 1, maximum: 100 });
      expect(param(path, 'offset').schema, path).toMatchObject({ default: 0, minimum: 0 });
    }
    const page = await server.call('GET', RECS, { token: a.key });
    expect(page.body).toMatchObject({ limit: 50, offset: 0 });
    const transfers = await server.call('GET', '/api/inventory/transfers', { token: a.key });
    expect(transfers.body).toMatchObject({ limit: 50, offset: 0 });
  });

  it('lists the recommendation status values in upper case and in the lower case of the machine-readable variant', async () => {
    const values = param('/transfers/recommendations', 'status').schema.enum;
    expect(values).toEqual(expect.arrayContaining(['PENDING', 'APPROVED', 'EXECUTED', 'REJECTED', 'EXPIRED', 'pending', 'approved', 'rejected', 'executed']));
    for (const status of values) expect((await server.call('GET', `${RECS}?status=${status}`, { token: a.key })).status, status).toBe(200);
  });
});

describe('execute takes no body', () => {
  it('refuses fields in a body (400 naming them), and documents the body as empty and optional', async () => {
    const res = await server.call('POST', `${RECS}/unknown-id/execute`, { token: a.key, body: { quantity: 5 } });
    expect([res.status, res.body.details]).toEqual([400, { quantity: ['Unknown field'] }]);
    expect((await server.call('POST', `${RECS}/unknown-id/execute`, { token: a.key })).status).toBe(404);
    expect((await server.call('POST', `${RECS}/unknown-id/execute`, { token: a.key, body: {} })).status).toBe(404);
    const body = doc.paths['/transfers/recommendations/{id}/execute'].post.requestBody;
    expect(body.required).toBe(false);
    expect(body.content['application/json'].schema).toMatchObject({ type: 'object', additionalProperties: false });
  });
});
