import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe } from 'vitest';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { itProvokesEachRefusal, runMutation } from '../support/mutation-refusals.js';
import { startTestServer, type TestServer } from '../support/server.js';

// Master data, products and imports: the mutations whose refusals are about their input and ids.
let server: TestServer;
let a: Tenant;
let categoryId: string;
let channelId: string;
let productId: string;
beforeAll(async () => {
  server = await startTestServer();
  a = await createTenant(server.app.prisma);
  const organizationId = a.org.id;
  categoryId = (await server.app.prisma.category.create({ data: { organizationId, name: 'Refusals' } })).id;
  channelId = (await server.app.prisma.channel.create({ data: { organizationId, name: 'Refusals' } })).id;
  productId = (await server.call('POST', '/api/products', { token: a.key, body: { sku: 'REFUSE-1', name: 'Refusals' } })).body.id;
});
afterAll(() => server?.close());

const run = (name: string, args: Record<string, unknown> = {}) => runMutation(server, a.key, name, args);
const unknownId = randomUUID();

describe('refusals of master-data, product and import mutations', () => {
  itProvokesEachRefusal({
    createCategory: { ValidationError: ['VALIDATION_ERROR', () => run('createCategory', { input: { name: ' ' } })] },
    updateCategory: {
      ValidationError: ['VALIDATION_ERROR', () => run('updateCategory', { id: categoryId, input: { name: 'x'.repeat(201) } })],
      NotFoundError: ['NOT_FOUND', () => run('updateCategory', { id: unknownId, input: { name: 'y' } })],
    },
    deleteCategory: { NotFoundError: ['NOT_FOUND', () => run('deleteCategory', { id: unknownId })] },
    createChannel: { ValidationError: ['VALIDATION_ERROR', () => run('createChannel', { input: { name: ' ' } })] },
    updateChannel: {
      ValidationError: ['VALIDATION_ERROR', () => run('updateChannel', { id: channelId, input: { type: ' ' } })],
      NotFoundError: ['NOT_FOUND', () => run('updateChannel', { id: unknownId, input: { name: 'y' } })],
    },
    deleteChannel: { NotFoundError: ['NOT_FOUND', () => run('deleteChannel', { id: unknownId })] },
    createLocation: { ValidationError: ['VALIDATION_ERROR', () => run('createLocation', { input: { code: 'WH1', name: 'Taken code' } })] },
    updateLocation: {
      ValidationError: ['VALIDATION_ERROR', () => run('updateLocation', { id: a.warehouse.id, input: { code: 'x'.repeat(51) } })],
      NotFoundError: ['NOT_FOUND', () => run('updateLocation', { id: unknownId, input: { name: 'y' } })],
    },
    deleteLocation: { NotFoundError: ['NOT_FOUND', () => run('deleteLocation', { id: unknownId })] },
    createProduct: { ValidationError: ['VALIDATION_ERROR', () => run('createProduct', { input: { sku: 'REFUSE-1', name: 'Taken SKU' } })] },
    updateProduct: {
      ValidationError: ['VALIDATION_ERROR', () => run('updateProduct', { id: productId, input: { categoryId: unknownId } })],
      NotFoundError: ['NOT_FOUND', () => run('updateProduct', { id: unknownId, input: { name: 'y' } })],
    },
    startImport: { ValidationError: ['VALIDATION_ERROR', () => run('startImport', { kind: 'CATALOG', rows: [] })] },
    validateImport: { ValidationError: ['VALIDATION_ERROR', () => run('validateImport', { kind: 'CATALOG', rows: [] })] },
  });
});
