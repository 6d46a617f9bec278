import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocationFor } from '../../src/services/admin/admin.js';
import { createProduct, graphqlData, graphqlError } from '../support/api.js';
import { type Tenant } from '../support/fixtures.js';
import { type ConnectionCase, itWalksConnections } from '../support/connection-walk.js';
import type { TestServer } from '../support/server.js';
import { startServerWithTwoTenants } from '../support/two-tenants.js';

// The transfer lists as Relay connections, paged both ways over a few rows, against the REST adapter's
// page fields (the same service and order); and the transfer inputs' expectedAt as a Date.
let server: TestServer;
let a: Tenant;
let b: Tenant;
let productIds: string[];
let theirProduct: string;

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants());
  const store = await createLocationFor(server.operator, { organizationId: a.org.id, code: 'CONN-ST', name: 'Store' });
  productIds = [];
  for (const i of [1, 2, 3, 4, 5]) productIds.push(await createProduct(server, a.key, `TCONN-${i}`));
  theirProduct = await createProduct(server, b.key, 'TCONN-B');
  for (const productMasterId of productIds) {
    const res = await server.call('POST', '/api/inventory/transfers', {
      token: a.key,
      body: { sourceLocationId: a.warehouse.id, destLocationId: store.id, lines: [{ productMasterId, quantity: 1 }] },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }
  // Recommendations as a generation leaves them, two of them overdue (EXPIRED, so not pending).
  const priorities = ['URGENT', 'LOW', 'HIGH', 'MEDIUM', 'HIGH'] as const;
  for (const [i, productMasterId] of productIds.entries()) {
    await server.app.prisma.transferRecommendation.create({
      data: {
        organizationId: a.org.id,
        productMasterId,
        sourceLocationId: a.warehouse.id,
        destLocationId: store.id,
        quantity: i + 1,
        priority: priorities[i]!,
        reason: 'test',
        unitTransferCost: 0,
        unitsAtRisk: 0,
        expiresAt: new Date(Date.now() + (i < 3 ? 86_400_000 : -86_400_000)),
        createdByType: 'API_KEY',
        createdBy: 'test',
      },
    });
  }
});
afterAll(() => server?.close());

const ids = (items: { id: string }[]) => items.map((item) => item.id);

const cases = (): ConnectionCase[] => [
  {
    field: 'inventoryTransfers',
    max: 100,
    total: 5,
    reference: async () => ids((await graphqlData(server, a.key, '{ inventoryTransfersPage(limit: 100) { transfers { id } } }')).inventoryTransfersPage.transfers),
    foreign: `productMasterId: "${theirProduct}"`,
  },
  {
    field: 'transferRecommendations',
    max: 100,
    total: 5,
    reference: async () => ids((await graphqlData(server, a.key, '{ transferRecommendationsPage(limit: 100) { recommendations { id } } }')).transferRecommendationsPage.recommendations),
    foreign: `productMasterId: "${theirProduct}"`,
  },
  {
    field: 'pendingTransferRecommendations',
    max: 100,
    total: 3,
    reference: async () =>
      ids((await graphqlData(server, a.key, '{ pendingTransferRecommendationsPage(limit: 100) { recommendations { id } } }')).pendingTransferRecommendationsPage.recommendations),
    foreign: `sourceLocationId: "${b.warehouse.id}"`,
  },
];

describe('transfer lists as connections', () => {
  itWalksConnections(() => ({ server, token: a.key, cases: cases() }));

  it('filters a connection the way its page field filters', async () => {
    const data = await graphqlData(
      server,
      a.key,
      `query ($p: ID) {
        inventoryTransfers(productMasterId: $p) { totalCount edges { node { lines { productMasterId } } } }
        transferRecommendations(priority: HIGH) { totalCount }
        pendingTransferRecommendations(priority: HIGH) { totalCount }
      }`,
      { p: productIds[2] },
    );
    expect(data.inventoryTransfers.totalCount).toBe(1);
    expect(data.inventoryTransfers.edges[0].node.lines).toEqual([{ productMasterId: productIds[2] }]);
    expect(data.transferRecommendations.totalCount).toBe(2);
    expect(data.pendingTransferRecommendations.totalCount).toBe(1);
  });
});

describe('expectedAt of a transfer is a Date', () => {
  const CREATE = `mutation ($input: InventoryTransferCreateInput!) { createInventoryTransfer(input: $input) { ... on InventoryTransfer { id expectedAt } } }`;
  const UPDATE = `mutation ($id: ID!, $input: InventoryTransferUpdateInput!) { updateInventoryTransfer(id: $id, input: $input) { ... on InventoryTransfer { expectedAt } } }`;
  const input = (expectedAt: unknown) => ({ sourceLocationId: a.warehouse.id, destLocationId: b.warehouse.id, lines: [{ productMasterId: productIds[0], quantity: 1 }], expectedAt });

  it('takes a calendar date on create and update, and null clears it', async () => {
    const stores = await server.app.prisma.location.findFirstOrThrow({ where: { organizationId: a.org.id, code: 'CONN-ST' } });
    const created = (await graphqlData(server, a.key, CREATE, { input: { ...input('2030-05-01'), destLocationId: stores.id } })).createInventoryTransfer;
    expect(created.expectedAt).toBe('2030-05-01');
    expect((await graphqlData(server, a.key, UPDATE, { id: created.id, input: { expectedAt: '2030-06-30' } })).updateInventoryTransfer.expectedAt).toBe('2030-06-30');
    expect((await graphqlData(server, a.key, UPDATE, { id: created.id, input: { expectedAt: null } })).updateInventoryTransfer.expectedAt).toBeNull();
  });

  it('refuses what is not a date with VALIDATION_ERROR naming the field', async () => {
    for (const bad of ['2030-02-31', '1 May 2030', '2030-05-01T00:00:00Z', 20300501]) {
      const error = await graphqlError(server, a.key, CREATE, { input: input(bad) });
      expect(error.code, String(bad)).toBe('VALIDATION_ERROR');
      expect(Object.keys(error.details ?? {}), String(bad)).toEqual(['input.expectedAt']);
    }
  });
});
