import { expect, it } from 'vitest';
import { schema } from '../../src/schema/index.js';
import type { TestServer } from './server.js';

type Refusal = 'ValidationError' | 'NotFoundError' | 'ConflictError' | 'InsufficientStockError';
const V = 'ValidationError';
const N = 'NotFoundError';
const C = 'ConflictError';
const I = 'InsufficientStockError';

/**
 * The refusal types each mutation answers with, written out here independently of the schema:
 * test/server/mutation-refusals.test.ts checks that the schema's unions are exactly these, and each
 * area's mutation-refusals test provokes every one of them. `[]`: the mutation returns its type plainly.
 */
export const MUTATION_REFUSALS: Record<string, Refusal[]> = {
  signIn: [V],
  signOut: [],
  createApiKey: [V],
  updateApiKey: [V, N, C],
  revokeApiKey: [N, C],
  rotateApiKey: [V, N, C],
  createCategory: [V],
  updateCategory: [V, N],
  deleteCategory: [N],
  createChannel: [V],
  updateChannel: [V, N],
  deleteChannel: [N],
  createLocation: [V],
  updateLocation: [V, N],
  deleteLocation: [N],
  createProduct: [V],
  updateProduct: [V, N],
  upsertInventoryLevel: [V, N],
  updateInventoryLevel: [V, N],
  deleteInventoryLevel: [N],
  setAllocationPolicy: [V, N],
  deleteAllocationPolicy: [N],
  adjustStock: [V, I],
  adjustStockBy: [V, I],
  correctLot: [V, I],
  updateCycleCountAbc: [V],
  createCycleCountBatch: [V, C],
  updateCycleCountBatch: [V, N, C],
  resolveCycleCountLines: [V, C, I],
  recordStock: [V],
  recordCount: [V, I],
  markExpired: [V],
  markExpiredConsumed: [V],
  destroyExpiredStock: [V],
  confirmPutAway: [V, I],
  updateReplenishmentConfig: [V, N],
  createReplenishmentRecords: [V, N],
  approveReplenishmentRecord: [V, N, C],
  convertReplenishmentRecord: [V, N, C],
  cancelReplenishmentRecord: [V, N, C],
  replenishmentAction: [V, N, C],
  createStockRequest: [V, N],
  updateStockRequest: [V, N, C],
  deleteStockRequest: [N, C],
  submitStockRequest: [V, N, C],
  approveStockRequest: [V, N, C],
  rejectStockRequest: [V, N, C],
  cancelStockRequest: [V, N, C],
  rollbackStockRequest: [V, N, C],
  moveStockRequest: [V, N, C, I],
  fulfilStockRequest: [V, N, C, I],
  setStockRequestLines: [V, N, C],
  commentOnStockRequest: [V, N, C],
  createShipment: [V, C, I],
  pickShipment: [V, N, C, I],
  packShipment: [V, N, C],
  shipShipment: [V, N, C, I],
  deliverShipment: [V, N, C],
  cancelShipment: [V, N, C, I],
  createBooking: [V],
  updateBooking: [V, N, C],
  confirmBooking: [V, N, C],
  reserveBooking: [V, N, C],
  fulfilBooking: [V, N, C, I],
  cancelBooking: [V, N, C],
  createWebhookEndpoint: [V, C],
  updateWebhookEndpoint: [V, N],
  deleteWebhookEndpoint: [V, N],
  rotateWebhookEndpointSecret: [V, N],
  replayWebhookDelivery: [V, N, C],
  createAlertRule: [V, N, C],
  updateAlertRule: [V, N],
  deleteAlertRule: [V, N],
  acknowledgeAlert: [V, N, C],
  resolveAlert: [V, N, C],
  moveStock: [V, N, I],
  moveBinStock: [V, I],
  placeInventoryHold: [V, I],
  releaseInventoryHold: [V, C],
  createInventoryTransfer: [V],
  updateInventoryTransfer: [V, N, C],
  shipInventoryTransfer: [V, N, C, I],
  receiveInventoryTransfer: [V, N, C],
  cancelInventoryTransfer: [V, N, C],
  inventoryTransferAction: [V, N, C, I],
  setTransferCost: [V],
  generateTransferRecommendations: [V],
  approveTransferRecommendation: [V, N, C],
  rejectTransferRecommendation: [V, N, C],
  executeTransferRecommendation: [N, C, I],
  createForecastScenario: [V],
  replaceForecastScenario: [V, N, C],
  updateForecastScenario: [V, N, C],
  publishForecastScenario: [N, C],
  archiveForecastScenario: [N, C],
  generateForecast: [V, N, C],
  setForecastOverride: [V, C],
  removeForecastOverride: [N, C],
  createExternalEvent: [V],
  updateExternalEvent: [V, N, C],
  deleteExternalEvent: [N, C],
  startImport: [V],
  validateImport: [V],
};

/** What a provoked refusal answered: the result's type and, for a refusal, its code. */
export interface Answer {
  __typename: string;
  code?: string;
}

/**
 * Runs one mutation with these arguments (as variables, typed from the schema) as `token`, selecting
 * only `__typename` and the refusal's code; fails on top-level errors, which a typed refusal never has.
 */
export async function runMutation(server: TestServer, token: string | undefined, name: string, args: Record<string, unknown> = {}): Promise<Answer> {
  const field = schema.getMutationType()!.getFields()[name];
  if (!field) throw new Error(`No mutation ${name}`);
  const used = field.args.filter((arg) => arg.name in args);
  const header = used.length ? `(${used.map((arg) => `$${arg.name}: ${arg.type}`).join(', ')})` : '';
  const call = used.length ? `(${used.map((arg) => `${arg.name}: $${arg.name}`).join(', ')})` : '';
  const res = await server.graphql(`mutation ${header} { result: ${name}${call} { __typename ... on MutationError { code } } }`, args, token);
  expect(res.body.errors, `${name}: ${JSON.stringify(res.body.errors)}`).toBeUndefined();
  return res.body.data.result;
}

/** One refusal a test provokes: the code it must carry, and the call that provokes it. */
export type Provocation = [code: string, provoke: () => Promise<Answer>];
export type RefusalCases = Record<string, Partial<Record<Refusal, Provocation>>>;

/**
 * One test per mutation and refusal type of `cases`, asserting `__typename` and `code`; and one that
 * the cases cover exactly the table's refusals of these mutations (so that none is left unprovoked).
 * Cases run in order, on the file's one server.
 */
export function itProvokesEachRefusal(cases: RefusalCases) {
  it('provokes exactly the refusals the table lists for these mutations', () => {
    for (const [name, provocations] of Object.entries(cases)) {
      const expected = MUTATION_REFUSALS[name] ?? ['(not in the table)'];
      expect(Object.keys(provocations).sort(), name).toEqual([...expected].sort());
    }
  });
  for (const [name, provocations] of Object.entries(cases)) {
    for (const [type, [code, provoke]] of Object.entries(provocations) as [Refusal, Provocation][]) {
      it(`${name} answers ${type} (${code})`, async () => {
        expect(await provoke()).toEqual({ __typename: type, code });
      });
    }
  }
}
