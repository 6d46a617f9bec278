import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { FORECASTING } from '../support/forecasting.js';
import { itProvokesEachRefusal, runMutation } from '../support/mutation-refusals.js';
import { startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;
let a: Tenant;
let productId: string;
let draft: string;
let published: string;
let archived: string;
/** An override of `published`, set while it was a draft. */
let publishedOverride: string;
let eventId: string;
/** The BOOKING event a confirmed wholesale booking keeps (changed only through its booking). */
let bookingEventId: string;
beforeAll(async () => {
  server = await startTestServer();
  a = await createTenant(server.app.prisma, { capabilities: [FORECASTING] });
  productId = (await server.call('POST', '/api/products', { token: a.key, body: { sku: 'REFUSE-FC', name: 'Refusals' } })).body.id;
  draft = await created('createForecastScenario', 'ForecastScenario', { input: { name: 'Draft', type: 'CUSTOM' } });
  published = await created('createForecastScenario', 'ForecastScenario', { input: { name: 'Published', type: 'CUSTOM' } });
  archived = await created('createForecastScenario', 'ForecastScenario', { input: { name: 'Archived', type: 'CUSTOM' } });
  publishedOverride = await created('setForecastOverride', 'ForecastOverride', {
    input: { scenarioId: published, productMasterId: productId, locationId: a.warehouse.id, periodStart: '2026-01-05', quantity: 3 },
  });
  await created('publishForecastScenario', 'ForecastScenario', { id: published });
  await created('archiveForecastScenario', 'ForecastScenario', { id: archived });
  eventId = await created('createExternalEvent', 'ExternalEvent', {
    input: { name: 'Sale', type: 'HOLIDAY', startsAt: '2026-01-05T00:00:00Z', endsAt: '2026-01-06T00:00:00Z' },
  });
  const booking = (await server.call('POST', '/api/bookings', { token: a.key, body: { customer: 'Refusals', locationId: a.warehouse.id, week: '2099-W02', lines: [{ productId, quantity: 1 }] } })).body;
  await server.call('POST', `/api/bookings/${booking.id}/confirm`, { token: a.key, body: {} });
  bookingEventId = (await server.app.prisma.externalEvent.findFirstOrThrow({ where: { bookingLine: { bookingId: booking.id } } })).id;
});
afterAll(() => server?.close());

const run = (name: string, args: Record<string, unknown> = {}) => runMutation(server, a.key, name, args);
const unknownId = randomUUID();

/** Runs a set-up mutation that must succeed; answers the id of what it made. */
async function created(name: string, type: string, args: Record<string, unknown>) {
  const field = Object.keys(args).map((arg) => `${arg}: $${arg}`).join(', ');
  const types: Record<string, string> = {
    createForecastScenario: '$input: ForecastScenarioInput!',
    setForecastOverride: '$input: ForecastOverrideInput!',
    createExternalEvent: '$input: ExternalEventCreateInput!',
    publishForecastScenario: '$id: ID!',
    archiveForecastScenario: '$id: ID!',
  };
  const res = await server.graphql(`mutation (${types[name]}) { result: ${name}(${field}) { __typename ... on ${type} { id } } }`, args, a.key);
  expect(res.body.data?.result?.__typename, JSON.stringify(res.body)).toBe(type);
  return res.body.data.result.id as string;
}

describe('refusals of forecasting mutations', () => {
  itProvokesEachRefusal({
    createForecastScenario: { ValidationError: ['VALIDATION_ERROR', () => run('createForecastScenario', { input: { name: ' ', type: 'CUSTOM' } })] },
    replaceForecastScenario: {
      ValidationError: ['VALIDATION_ERROR', () => run('replaceForecastScenario', { id: draft, input: { name: ' ', type: 'CUSTOM' } })],
      NotFoundError: ['NOT_FOUND', () => run('replaceForecastScenario', { id: unknownId, input: { name: 'x', type: 'CUSTOM' } })],
      ConflictError: ['INVALID_STATE', () => run('replaceForecastScenario', { id: published, input: { name: 'x', type: 'CUSTOM' } })],
    },
    updateForecastScenario: {
      ValidationError: ['VALIDATION_ERROR', () => run('updateForecastScenario', { id: draft, input: { name: ' ' } })],
      NotFoundError: ['NOT_FOUND', () => run('updateForecastScenario', { id: unknownId, input: { name: 'x' } })],
      ConflictError: ['INVALID_STATE', () => run('updateForecastScenario', { id: archived, input: { name: 'x' } })],
    },
    publishForecastScenario: {
      NotFoundError: ['NOT_FOUND', () => run('publishForecastScenario', { id: unknownId })],
      ConflictError: ['INVALID_STATE', () => run('publishForecastScenario', { id: published })],
    },
    archiveForecastScenario: {
      NotFoundError: ['NOT_FOUND', () => run('archiveForecastScenario', { id: unknownId })],
      ConflictError: ['INVALID_STATE', () => run('archiveForecastScenario', { id: archived })],
    },
    generateForecast: {
      ValidationError: ['VALIDATION_ERROR', () => run('generateForecast', { scenarioId: draft, input: { horizon: 0 } })],
      NotFoundError: ['NOT_FOUND', () => run('generateForecast', { scenarioId: unknownId })],
      ConflictError: ['INVALID_STATE', () => run('generateForecast', { scenarioId: published })],
    },
    setForecastOverride: {
      ValidationError: ['VALIDATION_ERROR', () => run('setForecastOverride', { input: { productMasterId: unknownId, locationId: a.warehouse.id, periodStart: '2026-01-05', quantity: 1 } })],
      ConflictError: ['INVALID_STATE', () => run('setForecastOverride', { input: { scenarioId: published, productMasterId: productId, locationId: a.warehouse.id, periodStart: '2026-01-05', quantity: 1 } })],
    },
    removeForecastOverride: {
      NotFoundError: ['NOT_FOUND', () => run('removeForecastOverride', { id: unknownId })],
      ConflictError: ['INVALID_STATE', () => run('removeForecastOverride', { id: publishedOverride })],
    },
    createExternalEvent: {
      ValidationError: ['VALIDATION_ERROR', () => run('createExternalEvent', { input: { name: 'Backwards', type: 'HOLIDAY', startsAt: '2026-01-06T00:00:00Z', endsAt: '2026-01-05T00:00:00Z' } })],
    },
    updateExternalEvent: {
      ValidationError: ['VALIDATION_ERROR', () => run('updateExternalEvent', { id: eventId, input: { productMasterId: unknownId } })],
      NotFoundError: ['NOT_FOUND', () => run('updateExternalEvent', { id: unknownId, input: { name: 'x' } })],
      ConflictError: ['INVALID_STATE', () => run('updateExternalEvent', { id: bookingEventId, input: { name: 'x' } })],
    },
    deleteExternalEvent: {
      NotFoundError: ['NOT_FOUND', () => run('deleteExternalEvent', { id: unknownId })],
      ConflictError: ['INVALID_STATE', () => run('deleteExternalEvent', { id: bookingEventId })],
    },
  });
});
