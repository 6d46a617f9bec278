import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocationFor } from '../../src/services/admin/admin.js';
import { createProduct, graphqlData } from '../support/api.js';
import type { Tenant } from '../support/fixtures.js';
import type { TestServer } from '../support/server.js';
import { startServerWithTwoTenants } from '../support/two-tenants.js';

// The GraphQL side: the connection with lines and links, the history, node lookups, and the typed refusal.
let server: TestServer;
let a: Tenant;
let b: Tenant;
let ward: { id: string };
let product: string;

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants());
  ward = await createLocationFor(server.operator, { organizationId: a.org.id, code: 'WARD1', name: 'Ward 1' });
  product = await createProduct(server, a.key, 'GQL-1');
});
afterAll(() => server?.close());

const CREATE = `mutation ($input: StockRequestCreateInput!) { createStockRequest(input: $input) { __typename ... on StockRequest { id reference status } } }`;

describe('stock requests over GraphQL', () => {
  it('creates, pages the connection with lines and links, reads the history and finds the nodes', async () => {
    const input = { requestingLocationId: ward.id, supplyingLocationId: a.warehouse.id, neededBy: '2031-01-01', priority: 'HIGH', lines: [{ productMasterId: product, quantityRequested: 3 }] };
    const first = (await graphqlData(server, a.key, CREATE, { input })).createStockRequest;
    const second = (await graphqlData(server, a.key, CREATE, { input })).createStockRequest;
    expect(first).toMatchObject({ __typename: 'StockRequest', status: 'DRAFT', reference: expect.stringMatching(/^SR-\d{6}$/) });
    const page = await graphqlData(
      server,
      a.key,
      `{ stockRequests(first: 1, requestingLocationId: "${ward.id}") { totalCount pageInfo { hasNextPage endCursor }
        edges { node { id priority requestingLocation { id } supplyingLocation { id } lines { id quantityRequested product { id } } } } } }`,
    );
    expect(page.stockRequests.totalCount).toBe(2);
    expect(page.stockRequests.pageInfo.hasNextPage).toBe(true);
    const node = page.stockRequests.edges[0].node;
    expect(node).toMatchObject({ id: second.id, priority: 'HIGH', requestingLocation: { id: ward.id }, supplyingLocation: { id: a.warehouse.id } });
    expect(node.lines[0]).toMatchObject({ quantityRequested: 3, product: { id: product } });

    const history = await graphqlData(server, a.key, `query ($id: ID!) { stockRequestHistory(id: $id) { requestId status total events { id kind toStatus } } }`, { id: first.id });
    expect(history.stockRequestHistory).toMatchObject({ requestId: first.id, status: 'DRAFT', total: 1, events: [{ kind: 'CREATED', toStatus: 'DRAFT' }] });
    const ids = [first.id, node.lines[0].id, history.stockRequestHistory.events[0].id];
    const nodes = await graphqlData(server, a.key, `query ($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }`, { ids });
    expect(nodes.nodes.map((n: { __typename: string }) => n.__typename)).toEqual(['StockRequest', 'StockRequestLine', 'StockRequestEvent']);
    const theirs = await graphqlData(server, b.key, `query ($ids: [ID!]!, $id: ID!) { nodes(ids: $ids) { id } stockRequest(id: $id) { id } }`, { ids, id: first.id });
    expect(theirs).toEqual({ nodes: [null, null, null], stockRequest: null });
  });

  it('answers an illegal move with a typed ConflictError naming the state', async () => {
    const input = { requestingLocationId: ward.id, supplyingLocationId: a.warehouse.id, neededBy: '2031-01-01', lines: [{ productMasterId: product, quantityRequested: 1 }] };
    const { id } = (await graphqlData(server, a.key, CREATE, { input })).createStockRequest;
    const data = await graphqlData(
      server,
      a.key,
      `mutation ($input: StockRequestApproveInput!) { approveStockRequest(input: $input) { __typename ... on MutationError { code message } } }`,
      { input: { id } },
    );
    expect(data.approveStockRequest).toMatchObject({ __typename: 'ConflictError', code: 'INVALID_STATE', message: expect.stringContaining('is DRAFT') });
  });
});
