import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/kernel/errors.js';
import { createTenant } from '../support/fixtures.js';
import { REFUSAL, refusalOf } from '../support/graphql.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { addStock } from '../support/stock.js';

let server: TestServer;
let a: Awaited<ReturnType<typeof createTenant>>;
let b: Awaited<ReturnType<typeof createTenant>>;
beforeAll(async () => {
  server = await startTestServer();
  a = await createTenant(server.app.prisma);
  b = await createTenant(server.app.prisma);
});
afterAll(() => server?.close());

const ledgerRows = () => server.app.prisma.stockTransaction.count({ where: { organizationId: a.org.id } });

describe('typed mutation errors', () => {
  it('are listed by introspection: the MutationError interface, its types, ErrorCode, and the mutation unions', async () => {
    const res = await server.graphql(
      `{ error: __type(name: "MutationError") { kind fields { name type { kind name ofType { kind name ofType { kind name } } } } possibleTypes { name } }
         codes: __type(name: "ErrorCode") { kind enumValues { name description } }
         adjust: __type(name: "MutationAdjustStockByResult") { kind possibleTypes { name } }
         mutation: __type(name: "Mutation") { fields { name type { kind name ofType { kind name } } } } }`,
      {},
      a.key,
    );
    expect(res.body.errors).toBeUndefined();
    const { error, codes, adjust, mutation } = res.body.data;
    expect(error.kind).toBe('INTERFACE');
    expect(error.possibleTypes.map((t: { name: string }) => t.name).sort()).toEqual(['ConflictError', 'InsufficientStockError', 'NotFoundError', 'ValidationError']);
    expect(Object.fromEntries(error.fields.map((f: any) => [f.name, f.type]))).toMatchObject({
      code: { kind: 'NON_NULL', ofType: { kind: 'ENUM', name: 'ErrorCode' } },
      message: { kind: 'NON_NULL', ofType: { kind: 'SCALAR', name: 'String' } },
      fields: { kind: 'NON_NULL', ofType: { kind: 'LIST', ofType: { kind: 'NON_NULL' } } },
    });
    expect(codes.kind).toBe('ENUM');
    expect(codes.enumValues.map((v: { name: string }) => v.name).sort()).toEqual(Object.keys(ERROR_CODES).sort());
    expect(codes.enumValues.every((v: { description: string | null }) => v.description)).toBe(true);
    expect(adjust.possibleTypes.map((t: { name: string }) => t.name).sort()).toEqual(
      ['InsufficientStockError', 'StockAdjustmentResult', 'ValidationError'],
    );
    // Every mutation that returns an object can refuse as data; signOut (a Boolean) cannot refuse its input.
    const notUnions = mutation.fields.filter((f: any) => f.type.ofType?.kind !== 'UNION').map((f: { name: string }) => f.name);
    expect(notUnions).toEqual(['signOut']);
  });

  it('a refusal for lack of stock is data with its code and details, and nothing is written', async () => {
    const product = await server.call('POST', '/api/products', { token: a.key, body: { sku: 'TYPED-1', name: 'Typed' } });
    const line = await addStock(server.app, a.org.id, { productMasterId: product.body.id, locationId: a.warehouse.id }, { ON_HAND: 5 });
    const before = await ledgerRows();
    const res = await server.graphql(
      `mutation ($id: ID!) { adjustStockBy(input: { inventoryItemId: $id, delta: -9, reasonCodeId: "LOST" }) {
         ... on StockAdjustmentResult { success } ${REFUSAL} } }`,
      { id: line.id },
      a.key,
    );
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    const refusal = refusalOf(res.body.data.adjustStockBy);
    expect(refusal).toMatchObject({ type: 'InsufficientStockError', code: 'INSUFFICIENT_STOCK', message: expect.any(String) });
    expect(Object.keys(refusal.details ?? {})).toHaveLength(1);
    expect((await server.app.prisma.stockLine.findUniqueOrThrow({ where: { id: line.id } })).qtyOnHand).toBe(5);
    expect(await ledgerRows()).toBe(before);

    // REST answers the same refusal as it always has.
    const rest = await server.call('POST', '/api/inventory/adjust', { token: a.key, body: { inventoryItemId: line.id, delta: -9, reasonCodeId: 'LOST' } });
    expect(rest.status).toBe(400);
    expect(rest.body).toEqual({ error: refusal.message, code: 'INSUFFICIENT_STOCK', details: refusal.details });
  });

  it('invalid input and foreign ids are ValidationError and NotFoundError; nothing is written', async () => {
    const count = () => server.app.prisma.productMaster.count({ where: { organizationId: a.org.id } });
    const before = await count();
    const invalid = await server.graphql(`mutation { createProduct(input: { sku: " ", name: "x" }) { ... on Product { id } ${REFUSAL} } }`, {}, a.key);
    expect(invalid.body.errors).toBeUndefined();
    expect(invalid.body.data.createProduct).toEqual({
      __typename: 'ValidationError',
      errorCode: 'VALIDATION_ERROR',
      message: 'Validation failed',
      fields: [{ field: 'sku', messages: ['Required'] }],
    });
    expect(await count()).toBe(before);

    const theirs = await server.call('POST', '/api/products', { token: b.key, body: { sku: 'THEIRS', name: 'Theirs' } });
    const foreign = await server.graphql(`mutation ($id: ID!) { updateProduct(id: $id, input: { name: "Mine" }) { ... on Product { id } ${REFUSAL} } }`, { id: theirs.body.id }, a.key);
    expect(refusalOf(foreign.body.data.updateProduct)).toEqual({ type: 'NotFoundError', code: 'NOT_FOUND', message: 'Product not found' });
    expect((await server.app.prisma.productMaster.findUniqueOrThrow({ where: { id: theirs.body.id } })).name).toBe('Theirs');
  });

  it('credential and permission failures stay in the top-level errors', async () => {
    const readOnly = await a.keyWith(['inventory:read']);
    const res = await server.graphql(`mutation { createProduct(input: { sku: "NOPE", name: "x" }) { ... on Product { id } ${REFUSAL} } }`, {}, readOnly);
    expect(res.body.data).toBeNull();
    expect(res.body.errors[0].extensions.code).toBe('INSUFFICIENT_SCOPE');
  });

  it('a client that selects only the result type still gets the refusal type name', async () => {
    const res = await server.graphql(`mutation { createProduct(input: { sku: "", name: "x" }) { __typename ... on Product { id } } }`, {}, a.key);
    expect(res.body.data.createProduct).toEqual({ __typename: 'ValidationError' });
  });
});
