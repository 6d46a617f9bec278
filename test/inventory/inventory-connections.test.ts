import { afterAll, beforeAll, describe } from 'vitest';
import { createProduct, graphqlData } from '../support/api.js';
import { type ConnectionCase, itWalksConnections } from '../support/connection-walk.js';
import type { Tenant } from '../support/fixtures.js';
import type { TestServer } from '../support/server.js';
import { addStock } from '../support/stock.js';
import { startServerWithTwoTenants } from '../support/two-tenants.js';

// channelLocationAtp, countSheet and apiKeys as Relay connections, paged both ways over a few rows,
// against the REST adapter's fields (the same services and order).
let server: TestServer;
let a: Tenant;
let b: Tenant;
let session: string;
let theirProduct: string;

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants());
  // Five products at the warehouse, one of them on two lines (lots): 5 ATP rows, 6 count-sheet lines.
  for (const sku of ['ICONN-C', 'ICONN-A', 'ICONN-E', 'ICONN-B', 'ICONN-D']) {
    const productMasterId = await createProduct(server, a.key, sku);
    await addStock(server.app, a.org.id, { productMasterId, locationId: a.warehouse.id, lotCode: `${sku}-1` }, { ON_HAND: 3 });
    if (sku === 'ICONN-B') await addStock(server.app, a.org.id, { productMasterId, locationId: a.warehouse.id, lotCode: `${sku}-2` }, { ON_HAND: 4 });
  }
  theirProduct = await createProduct(server, b.key, 'ICONN-THEIRS');
  for (const scopes of [['inventory:read'], ['inventory:write'], ['forecast:read']]) await a.keyWith(scopes);
  session = (await server.call('POST', '/api/auth/sign-in', { body: { email: a.admin.email, password: a.admin.password } })).body.token;
});
afterAll(() => server?.close());

const cases = (): ConnectionCase[] => [
  {
    field: 'channelLocationAtp',
    args: `locationId: "${a.warehouse.id}"`,
    key: 'productMasterId',
    max: 200,
    total: 5,
    reference: async () =>
      (await graphqlData(server, a.key, `{ channelLocationAtpPage(locationId: "${a.warehouse.id}", limit: 200) { products { productMasterId } } }`)).channelLocationAtpPage.products.map(
        (p: { productMasterId: string }) => p.productMasterId,
      ),
    foreign: `locationId: "${b.warehouse.id}"`,
  },
  {
    field: 'countSheet',
    args: `locationId: "${a.warehouse.id}"`,
    max: 1000,
    total: 6,
    reference: async () =>
      (await graphqlData(server, a.key, `{ countSheetPage(locationId: "${a.warehouse.id}", limit: 1000) { lines { id } } }`)).countSheetPage.lines.map((l: { id: string }) => l.id),
    foreign: `locationId: "${a.warehouse.id}", productMasterId: "${theirProduct}"`,
  },
  {
    field: 'apiKeys',
    max: 100,
    total: 4,
    idCursors: true,
    token: session,
    reference: async () => (await graphqlData(server, session, '{ allApiKeys { id } }')).allApiKeys.map((k: { id: string }) => k.id),
  },
];

describe('inventory and API-key lists as connections', () => {
  itWalksConnections(() => ({ server, token: a.key, cases: cases() }));
});
