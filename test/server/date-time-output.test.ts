import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct } from '../support/api.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

// DateTime values are written by the scalar's own formatter (src/kernel/iso-date-time.ts), not Date#toISOString: every
// instant a row can hold must come out as toISOString writes it, over GraphQL and REST alike, on the lists' direct
// statements and on Prisma's reads.
const INSTANTS = [
  '2026-03-01T12:34:56.000Z',
  '2026-11-30T23:59:59.999Z',
  '1999-12-31T23:59:59.009Z',
  '1970-01-01T00:00:00.000Z',
  '1969-12-31T23:59:59.999Z',
  '2000-02-29T01:02:03.040Z',
  '1000-01-01T00:00:00.000Z',
  '9999-12-31T23:59:59.999Z',
  '0999-12-31T23:59:59.999Z',
];

describe('DateTime output', () => {
  let server: TestServer;
  let tenant: Tenant;
  beforeAll(async () => {
    server = await startTestServer();
    tenant = await createTenant(server.app.prisma);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('writes every instant a timestamp can hold as toISOString does, in a lookup, a list and REST', async () => {
    for (const [n, instant] of INSTANTS.entries()) {
      const id = await createProduct(server, tenant.key, `ISO-${n}`);
      await server.app.prisma.productMaster.update({ where: { id }, data: { createdAt: new Date(instant) } });
      const expected = new Date(instant).toISOString();
      expect(expected).toBe(instant);
      const lookup = await server.graphql(`query ($id: ID!) { product(id: $id) { createdAt } }`, { id }, tenant.key);
      expect(lookup.body.data?.product?.createdAt, instant).toBe(expected);
      const rest = await server.call('GET', `/api/products/${id}`, { token: tenant.key });
      expect(rest.body.createdAt, instant).toBe(expected);
      const list = await server.call('GET', `/api/products?search=ISO-${n}&limit=1`, { token: tenant.key });
      expect(list.body.data[0].createdAt, instant).toBe(expected);
    }
  });
});
