import { buildClientSchema, getIntrospectionQuery, getNamedType, isInterfaceType, isObjectType, isLeafType, type GraphQLObjectType, type GraphQLSchema } from 'graphql';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tenant } from '../support/fixtures.js';
import { oneOfEach } from '../support/one-of-each.js';
import type { TestServer } from '../support/server.js';
import { startServerWithTwoTenants } from '../support/two-tenants.js';
import { graphqlData, graphqlError } from '../support/api.js';

// Relay's Global Object Identification: every entity implements Node, its id is its UUID, and node/nodes
// find it in the caller's organization only (null for anything else, never an error that leaks).

let server: TestServer;
let a: Tenant;
let b: Tenant;
let adminA: string;
let schema: GraphQLSchema;
let ours: Record<string, string>;
let theirs: Record<string, string>;

async function signIn(tenant: Tenant) {
  const res = await server.call('POST', '/api/auth/sign-in', { body: { email: tenant.admin.email, password: tenant.admin.password } });
  expect(res.status).toBe(200);
  return res.body.token as string;
}

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants({}, { capabilities: ['ai.forecasting.demand'] }));
  adminA = await signIn(a);
  ours = await oneOfEach(server.app, a, 'a1');
  theirs = await oneOfEach(server.app, b, 'b1');
  const introspection = await server.graphql(getIntrospectionQuery(), {}, a.key);
  expect(introspection.body.errors).toBeUndefined();
  schema = buildClientSchema(introspection.body.data);
}, 120_000);
afterAll(() => server?.close());

const NODE = 'query ($id: ID!) { node(id: $id) { __typename id } }';
const NODES = 'query ($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }';

const nodeTypes = () => (schema.getType('Node') && isInterfaceType(schema.getType('Node')) ? schema.getPossibleTypes(schema.getType('Node') as never) : []) as GraphQLObjectType[];

/** Every scalar and enum field of the type without required arguments: what a fragment on it can select flat. */
function flatFields(type: GraphQLObjectType) {
  return Object.values(type.getFields())
    .filter((field) => isLeafType(getNamedType(field.type)) && !field.args.some((arg) => arg.type.toString().endsWith('!')))
    .map((field) => field.name);
}

describe('the schema', () => {
  it('has a Node interface with id: ID!, and every object type with an id: ID! field implements it', () => {
    const node = schema.getType('Node');
    expect(isInterfaceType(node)).toBe(true);
    const withId = Object.values(schema.getTypeMap()).filter(
      (type): type is GraphQLObjectType => isObjectType(type) && !type.name.startsWith('__') && type.getFields().id?.type.toString() === 'ID!',
    );
    const notNodes = withId.filter((type) => !type.getInterfaces().some((i) => i.name === 'Node')).map((type) => type.name);
    expect(notNodes).toEqual([]);
    expect(nodeTypes().map((type) => type.name).sort()).toEqual(Object.keys(ours).sort());
  });

  it('node and nodes are root fields answering Node (nullable) and [Node]! ', () => {
    const fields = schema.getQueryType()!.getFields();
    expect(fields.node!.type.toString()).toBe('Node');
    expect(fields.node!.args.map((arg) => `${arg.name}: ${arg.type}`)).toEqual(['id: ID!']);
    expect(fields.nodes!.type.toString()).toBe('[Node]!');
    expect(fields.nodes!.args.map((arg) => `${arg.name}: ${arg.type}`)).toEqual(['ids: [ID!]!']);
  });
});

describe('node', () => {
  it('finds an entity of every Node type by its UUID, as that type, with every flat field resolving', async () => {
    for (const type of nodeTypes()) {
      const id = ours[type.name]!;
      const query = `query ($id: ID!) { node(id: $id) { __typename id ... on ${type.name} { ${flatFields(type).join(' ')} } } }`;
      const data = await graphqlData(server, adminA, query, { id });
      expect(data.node, type.name).toMatchObject({ __typename: type.name, id });
    }
  });

  it("answers null for the other organization's ids, unknown UUIDs and malformed ids", async () => {
    for (const id of [...Object.values(theirs), randomUUID(), '01890000-0000-7000-8000-000000000000', 'not-a-uuid', '', '42', `${ours.Product}x`, ours.Product!.toUpperCase()]) {
      const res = await server.graphql(NODE, { id }, adminA);
      expect(res.body, id).toEqual({ data: { node: null } });
    }
  });

  it('answers null for types the caller may not read (as for an unknown id), and what it may read as usual', async () => {
    const inventoryOnly = await a.keyWith(['inventory:read']);
    const read = async (token: string, type: string) => (await graphqlData(server, token, NODE, { id: ours[type] })).node;
    expect(await read(inventoryOnly, 'StockLine')).toMatchObject({ __typename: 'StockLine' });
    for (const type of ['ApiKey', 'ExternalEvent', 'ForecastScenario', 'ForecastRun', 'Supplier', 'ImportJob', 'DemandRecord', 'StockTransaction']) {
      expect(await read(inventoryOnly, type), type).toBeNull();
    }
    // Managing API keys needs a signed-in administrator: not even a key with every scope reads one.
    expect(await read(a.key, 'ApiKey')).toBeNull();
    expect(await read(adminA, 'ApiKey')).toMatchObject({ __typename: 'ApiKey' });
  });

  it('answers null for forecasting types when the plan lacks forecasting', async () => {
    await server.app.prisma.organization.update({ where: { id: a.org.id }, data: { capabilities: [] } });
    try {
      const key = await a.keyWith(['*']);
      const res = await graphqlData(server, key, NODES, { ids: [ours.ForecastScenario, ours.ExternalEvent, ours.Product] });
      expect(res.nodes).toEqual([null, null, { __typename: 'Product', id: ours.Product }]);
    } finally {
      await server.app.prisma.organization.update({ where: { id: a.org.id }, data: { capabilities: ['ai.forecasting.demand'] } });
    }
  });

  it('needs credentials', async () => {
    expect((await graphqlError(server, undefined, NODE, { id: ours.Product })).code).toBe('MISSING_AUTHORIZATION');
  });
});

describe('nodes', () => {
  it('answers in the order asked, with null in place of foreign, unknown and malformed ids, and repeats', async () => {
    const types = Object.keys(ours);
    const ids = [ours.Product, theirs.Product, 'nope', ...types.map((type) => ours[type]), randomUUID(), ours.Product];
    const { nodes } = await graphqlData(server, adminA, NODES, { ids });
    expect(nodes).toEqual([
      { __typename: 'Product', id: ours.Product },
      null,
      null,
      ...types.map((type) => ({ __typename: type, id: ours[type] })),
      null,
      { __typename: 'Product', id: ours.Product },
    ]);
  });

  it("finds none of the other organization's entities", async () => {
    const { nodes } = await graphqlData(server, adminA, NODES, { ids: Object.values(theirs) });
    expect(nodes).toEqual(Object.values(theirs).map(() => null));
  });

  it('takes 100 ids and refuses 101 with VALIDATION_ERROR', async () => {
    const hundred = Array.from({ length: 100 }, () => randomUUID());
    expect((await graphqlData(server, a.key, NODES, { ids: hundred })).nodes).toHaveLength(100);
    const res = await server.graphql(NODES, { ids: [...hundred, ours.Product] }, a.key);
    expect(res.body.data).toBeNull();
    expect(res.body.errors[0]).toMatchObject({ path: ['nodes'], extensions: { code: 'VALIDATION_ERROR' } });
  });

  it('finds 50 ids of mixed types with one query for the types and one per type', async () => {
    const more = await oneOfEach(server.app, a, 'a2');
    const ids = [...Object.values(ours), ...Object.values(more)].slice(0, 50);
    const types = new Set([...Object.keys(ours), ...Object.keys(more)].slice(0, 50));
    const counted = async (query: string, variables: Record<string, unknown>) => {
      server.queries.length = 0;
      const res = await server.graphql(query, variables, adminA);
      expect(res.body.errors).toBeUndefined();
      return { count: server.queries.length, data: res.body.data };
    };
    const baseline = await counted('{ __typename }', {});
    const fifty = await counted(NODES, { ids });
    expect(fifty.data.nodes.map((node: { id: string } | null) => node?.id)).toEqual(ids);
    // One statement for the types, one per type, and the nested rows of transfers (lines, their lots, lot codes)
    // and of holds (a hold's lines and their stock lines, a hold line's stock line), and the lines of stock
    // requests, and of shipments (lines and their allocations) and shipment lines (allocations), and the attempts
    // of webhook deliveries, and of bookings (lines and their allocations) and booking lines (allocations): as many
    // for 50 ids as for one id of each of those types.
    const NESTED_READS = 6 + 3 + 1 + 3 + 1 + 3;
    expect(fifty.count - baseline.count).toBeLessThanOrEqual(1 + types.size + NESTED_READS);
    const onePerType = await counted(NODES, { ids: Object.values(ours) });
    expect(fifty.count).toBe(onePerType.count);
  });

  it('several node fields of one document are found together', async () => {
    server.queries.length = 0;
    await server.graphql('{ __typename }', {}, a.key);
    const baseline = server.queries.length;
    server.queries.length = 0;
    const data = await graphqlData(server, a.key, 'query ($p: ID!, $l: ID!) { p: node(id: $p) { id } l: node(id: $l) { id } }', { p: ours.Product, l: ours.Location });
    expect(data).toEqual({ p: { id: ours.Product }, l: { id: ours.Location } });
    expect(server.queries.length - baseline).toBeLessThanOrEqual(3);
  });
});

describe('ids are unique across types', () => {
  it('no id answers as two types anywhere in the data', async () => {
    const seen = new Map<string, string>();
    const walk = (value: unknown): void => {
      if (Array.isArray(value)) return value.forEach(walk);
      if (!value || typeof value !== 'object') return;
      const object = value as Record<string, unknown>;
      if (typeof object.id === 'string' && typeof object.__typename === 'string') {
        const before = seen.get(object.id);
        expect(before === undefined || before === object.__typename, `${object.id}: ${before} and ${object.__typename}`).toBe(true);
        seen.set(object.id, object.__typename);
      }
      Object.values(object).forEach(walk);
    };
    const { nodes } = await graphqlData(server, adminA, NODES, { ids: Object.values(ours) });
    walk(nodes);
    // The same entities reached through their relations, every object selecting __typename and id.
    const data = await graphqlData(server, adminA, `query ($line: ID!, $transfer: ID!, $order: ID!) {
      line: node(id: $line) { __typename id ... on StockLine { product { __typename id } location { __typename id } lot { __typename id } bin { __typename id } } }
      transfer: node(id: $transfer) { __typename id ... on InventoryTransfer { sourceLocation { __typename id } lines { __typename id product { __typename id } lots { __typename id } } } }
      order: node(id: $order) { __typename id ... on SalesOrder { fulfillmentLocation { __typename id } lines { __typename id allocations { __typename id stockLine { __typename id } } } } }
    }`, { line: ours.StockLine, transfer: ours.InventoryTransfer, order: ours.SalesOrder });
    walk(data);
    expect(seen.size).toBeGreaterThanOrEqual(Object.keys(ours).length);
  });
});

describe('views of an entity name it and link to it instead of carrying its id', () => {
  it('availability, channel ATP and bin reports link to the StockLine, Bin and Location nodes', async () => {
    const data = await graphqlData(server, a.key, `query ($line: ID!, $l: ID!, $p: ID) {
      availabilityLine(id: $line) { __typename stockLineId stockLine { __typename id } }
      channelLocationDrilldown(locationId: $l, productMasterId: $p) { location { __typename id } stockLines { stockLineId stockLine { __typename id } } }
      locationBins(locationId: $l) { location { __typename id } bins { binId bin { __typename id } } }
    }`, { line: ours.StockLine, l: ours.Location, p: ours.Product });
    expect(data.availabilityLine).toEqual({ __typename: 'AvailabilityLine', stockLineId: ours.StockLine, stockLine: { __typename: 'StockLine', id: ours.StockLine } });
    expect(data.channelLocationDrilldown.location).toEqual({ __typename: 'Location', id: ours.Location });
    expect(data.channelLocationDrilldown.stockLines).toContainEqual({ stockLineId: ours.StockLine, stockLine: { __typename: 'StockLine', id: ours.StockLine } });
    expect(data.locationBins.location).toEqual({ __typename: 'Location', id: ours.Location });
    expect(data.locationBins.bins).toContainEqual({ binId: ours.Bin, bin: { __typename: 'Bin', id: ours.Bin } });
  });
});
