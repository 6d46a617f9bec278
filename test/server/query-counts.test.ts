import {
  buildSchema,
  getNamedType,
  getNullableType,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
} from 'graphql';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { oneOfEach } from '../support/one-of-each.js';
import { addStock } from '../support/stock.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { countStatements } from '../support/statement-count.js';

// No N+1: every list a client can ask Query for, with its items' links (product, location, lot, ...),
// runs as many SQL statements for a small organization (SMALL of every record) as for a larger one (LARGE).
const SMALL = 2;
const LARGE = 12;
const FORECASTING = 'ai.forecasting.demand';

const schema: GraphQLSchema = buildSchema(readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8'));
const nodeType = schema.getType('Node');

/** What a document can name of one organization's data set. */
interface Seeded {
  tenant: Tenant;
  ids: Record<string, string[]>;
  session: string;
}

interface Case {
  /** Arguments of the field, naming variables of VARIABLES. */
  args?: string;
  /** Sign in as the admin (the field needs a session). */
  session?: boolean;
  /** The items do not grow with the data set here (one record's children); the count must still match. */
  fixedSize?: string;
}

type Entry = Case | { exempt: string };

const VARIABLES: Record<string, { type: string; value: (s: Seeded) => unknown }> = {
  location: { type: 'ID', value: (s) => s.tenant.warehouse.id },
  locationReq: { type: 'ID!', value: (s) => s.tenant.warehouse.id },
  product: { type: 'ID', value: (s) => s.ids.Product![0] },
  productReq: { type: 'ID!', value: (s) => s.ids.Product![0] },
  skuReq: { type: 'String!', value: (s) => s.ids.sku![0] },
  scenarioReq: { type: 'ID!', value: (s) => s.ids.ForecastScenario![0] },
  scenarios: { type: '[ID!]!', value: (s) => s.ids.ForecastScenario!.slice(0, 2) },
  run: { type: 'ID!', value: (s) => s.ids.ForecastRun![0] },
  transfer: { type: 'ID!', value: (s) => s.ids.InventoryTransfer![0] },
  hold: { type: 'ID!', value: (s) => s.ids.InventoryHold![0] },
  countBatch: { type: 'ID!', value: (s) => s.ids.CycleCountBatch![0] },
  importJob: { type: 'ID!', value: (s) => s.ids.ImportJob![0] },
  stockRequest: { type: 'ID!', value: (s) => s.ids.StockRequest![0] },
  shipment: { type: 'ID!', value: (s) => s.ids.Shipment![0] },
  booking: { type: 'ID!', value: (s) => s.ids.Booking![0] },
  webhookEndpoint: { type: 'ID!', value: (s) => s.ids.WebhookEndpoint![0] },
  webhookDelivery: { type: 'ID!', value: (s) => s.ids.WebhookDelivery![0] },
  // Ids of every entity type within the 100 a `nodes` call takes: 3 of as many types as fit beside 2 of the others
  // (at least one type with 3, so the larger data set answers more); past 50 types, the last few get 1.
  ids: {
    type: '[ID!]!',
    value: (s) => {
      const types = Object.entries(s.ids).filter(([type]) => type !== 'sku');
      const withThree = Math.max(1, 100 - 2 * types.length);
      const withTwo = Math.min(types.length - withThree, 100 - 3 * withThree - (types.length - withThree));
      return types.flatMap(([, ids], i) => ids.slice(0, i < withThree ? 3 : i < withThree + withTwo ? 2 : 1));
    },
  },
  lotCheck: { type: 'LotValidationInput!', value: (s) => ({ productMasterId: s.ids.Product![0], locationId: s.tenant.warehouse.id, quantity: 1000 }) },
  check: { type: 'AvailabilityCheckInput!', value: (s) => ({ items: s.ids.sku!.map((sku) => ({ sku, locationId: s.tenant.warehouse.id, quantity: 1 })) }) },
};

const REST_PAGES = "the REST adapter's page/offset form of a list covered under its connection";

/** Every list-returning field of Query: how the test asks for it. A new list must add its entry here. */
const CASES: Record<string, Entry> = {
  allLocations: {},
  allocationPolicies: { args: 'first: 50' },
  allApiKeys: { session: true },
  allExternalEvents: { args: 'from: "2029-12-01T00:00:00Z", to: "2030-02-01T00:00:00Z"' },
  allForecastScenarios: {},
  apiKeys: { session: true, args: 'first: 50' },
  availability: { args: 'locationId: $location, includeStockLines: true' },
  categories: { args: 'first: 50' },
  channelLocationAtp: { args: 'locationId: $locationReq, first: 50' },
  channelLocationAtpPage: { exempt: REST_PAGES },
  channelLocationDrilldown: { args: 'locationId: $location, productMasterId: $product' },
  channelProjection: { args: 'first: 50, horizon: 2' },
  channelProjectionPage: { exempt: REST_PAGES },
  channelSummary: { args: 'locationId: $location' },
  channels: { args: 'first: 50' },
  checkAvailability: { args: 'input: $check' },
  compareForecastScenarios: { args: 'scenarioIds: $scenarios, horizon: 2', fixedSize: 'two scenarios compared in both' },
  countSheet: { args: 'locationId: $locationReq, first: 50' },
  countSheetPage: { exempt: REST_PAGES },
  demandForecast: { args: 'first: 50, horizon: 2' },
  demandForecastPage: { exempt: REST_PAGES },
  demandHistory: { args: 'first: 50' },
  externalEvents: { args: 'first: 50, from: "2029-12-01T00:00:00Z", to: "2030-02-01T00:00:00Z"' },
  forecastAccuracy: { args: 'first: 50' },
  forecastAccuracyPage: { exempt: REST_PAGES },
  forecastChanges: { args: 'first: 50' },
  forecastChangesPage: { exempt: REST_PAGES },
  forecastOverrides: { args: 'first: 50' },
  forecastOverridesPage: { exempt: REST_PAGES },
  forecastRunSeries: { args: 'id: $run, first: 50', fixedSize: 'the seeded runs store no series' },
  forecastRunSeriesPage: { exempt: REST_PAGES },
  forecastRuns: { args: 'scenarioId: $scenarioReq, first: 50' },
  forecastRunsPage: { exempt: REST_PAGES },
  forecastScenarios: { args: 'first: 50' },
  cycleCountProducts: { args: 'locationId: $locationReq, first: 50' },
  cycleCountProductsPage: { exempt: REST_PAGES },
  cycleCountBatches: { args: 'locationId: $locationReq, includeCompleted: true, first: 50' },
  cycleCountBatchesPage: { exempt: REST_PAGES },
  cycleCountBlindForm: { args: 'locationId: $locationReq' },
  cycleCountVariances: { args: 'locationId: $locationReq, first: 50', fixedSize: 'the seeded batches have no counted lines: nothing to resolve' },
  cycleCountVariancesPage: { exempt: REST_PAGES },
  cycleCountSuggestions: { args: 'locationId: $locationReq, first: 50', fixedSize: 'the seeded batches are IN_PROGRESS over every seeded stock line: nothing to suggest' },
  cycleCountSuggestionsPage: { exempt: REST_PAGES },
  cycleCountAccuracy: { fixedSize: 'the seeded batches are IN_PROGRESS: no location has a measured count' },
  cycleCountBatch: { args: 'id: $countBatch', fixedSize: 'one batch with one line' },
  importJob: { args: 'id: $importJob', fixedSize: 'one job; its row errors have no links' },
  importJobs: { args: 'first: 50' },
  inventoryInTransit: { args: 'locationId: $location', fixedSize: 'the seeded transfers are drafts: nothing is in transit' },
  inventoryHold: { args: 'id: $hold', fixedSize: 'one hold with one line' },
  inventoryHolds: { args: 'first: 50' },
  inventoryHoldsPage: { exempt: REST_PAGES },
  inventoryLevels: { args: 'first: 50' },
  inventoryTransfer: { args: 'id: $transfer', fixedSize: 'one transfer with one line' },
  inventoryTransfers: { args: 'first: 50' },
  inventoryTransfersPage: { exempt: REST_PAGES },
  learnedEventLifts: { fixedSize: 'the seeded events are in the future: nothing is learned from them' },
  locationBins: { args: 'locationId: $locationReq' },
  locations: { args: 'first: 50' },
  longTermForecast: { args: 'first: 50, months: 12' },
  longTermForecastPage: { exempt: REST_PAGES },
  nodes: { args: 'ids: $ids' },
  planningRecommendations: { args: 'locationId: $locationReq' },
  putAwayTasks: { args: 'locationId: $locationReq, first: 50' },
  putAwayTasksPage: { exempt: REST_PAGES },
  replenishmentRecords: { args: 'first: 50' },
  replenishmentRecordsPage: { exempt: REST_PAGES },
  pendingTransferRecommendations: { args: 'first: 50' },
  pendingTransferRecommendationsPage: { exempt: REST_PAGES },
  product: { args: 'id: $productReq', fixedSize: 'one product with one level' },
  productBySku: { args: 'sku: $skuReq', fixedSize: 'one product with one level' },
  productInventoryLevels: { exempt: "the REST adapter's form of Product.inventoryLevels (covered under product)" },
  products: { args: 'first: 50' },
  productsPage: { exempt: REST_PAGES },
  purchaseOrders: { args: 'first: 50' },
  reasonCodes: {},
  salesOrders: { args: 'first: 50' },
  stockLines: { args: 'first: 50' },
  stockProjection: { args: 'locationId: $locationReq' },
  stockLinesPage: { exempt: REST_PAGES },
  stockTransactionHistory: { exempt: REST_PAGES },
  shipment: { args: 'id: $shipment', fixedSize: 'one shipment with its lines' },
  shipments: { args: 'first: 50' },
  shipmentsPage: { exempt: REST_PAGES },
  booking: { args: 'id: $booking', fixedSize: 'one booking with its lines' },
  bookings: { args: 'first: 50' },
  bookingsPage: { exempt: REST_PAGES },
  webhookEndpoints: { args: 'first: 50' },
  alerts: { args: 'first: 50' },
  alertsPage: { exempt: REST_PAGES },
  alertRules: { args: 'first: 50' },
  allAlertRules: {},
  allWebhookEndpoints: {},
  webhookDeliveries: { args: 'endpointId: $webhookEndpoint, first: 50', fixedSize: "one endpoint's deliveries" },
  webhookDeliveriesPage: { exempt: REST_PAGES },
  webhookDelivery: { args: 'endpointId: $webhookEndpoint, deliveryId: $webhookDelivery', fixedSize: 'one delivery with its attempts' },
  stockRequest: { args: 'id: $stockRequest', fixedSize: 'one request with its lines' },
  stockRequestHistory: { args: 'id: $stockRequest', fixedSize: "one request's history" },
  stockRequests: { args: 'first: 50' },
  stockRequestsPage: { exempt: REST_PAGES },
  stockRequestsByCategory: { fixedSize: 'the seeded products have no category: one uncategorized row' },
  stockRequestDashboard: { fixedSize: 'one count per status whatever the data' },
  stockRequestFilterValues: {},
  stockRequestsPendingApproval: { args: 'first: 50', fixedSize: 'the seeded requests are DRAFT: none waits for approval' },
  stockRequestsPendingApprovalPage: { exempt: REST_PAGES },
  stockRequestProductSearch: { args: 'requestingLocationId: $locationReq, supplyingLocationId: $locationReq' },
  stockRequestStocklist: { args: 'requestingLocationId: $locationReq' },
  stockTransactions: { args: 'first: 50' },
  suppliers: { args: 'first: 50' },
  transferCosts: {},
  transferRecommendations: { args: 'first: 50' },
  transferRecommendationsPage: { exempt: REST_PAGES },
  expiredStock: { args: 'asOf: "2099-01-01", limit: 500' },
  replenishmentSuggestions: { args: 'input: {locationId: $locationReq}' },
  // The seeded lots expire on 2033-01-01.
  expiryRisk: { args: 'locationId: $locationReq, from: "2032-12-01", to: "2033-01-31"' },
  validateLots: { args: 'input: $lotCheck', fixedSize: 'the lines of one product at one location (the seed gives each product one line)' },
};

const isConnection = (type: GraphQLNamedType) => isObjectType(type) && 'edges' in type.getFields();
const hasRequiredArgs = (field: GraphQLField<unknown, unknown>) => field.args.some((arg) => isNonNullType(arg.type) && arg.defaultValue === undefined);
const isNode = (type: GraphQLNamedType) => isObjectType(type) && nodeType !== undefined && type.getInterfaces().some((i) => i === nodeType);

/** Whether a Query field returns a list: a list, a connection, or an object holding a list of objects. */
function returnsList(field: GraphQLField<unknown, unknown>) {
  const type = getNullableType(field.type);
  const named = getNamedType(field.type);
  if (isListType(type) || isConnection(named)) return true;
  return isObjectType(named) && Object.values(named.getFields()).some((f) => isListType(getNullableType(f.type)) && isObjectType(getNamedType(f.type)));
}

/**
 * A selection of a type: its links (fields of a Node type) as `{ id }`, and its other objects, lists and
 * connections (items with their links) down to `depth`. Fields with required arguments are left out.
 */
function selection(type: GraphQLNamedType, depth: number, skip = new Set<string>()): string {
  if (isInterfaceType(type)) {
    // Fields of one name whose types differ between the implementations (nullability) cannot be merged: left out.
    const possible = schema.getPossibleTypes(type);
    const typesOf = new Map<string, Set<string>>();
    for (const t of possible) for (const f of Object.values(t.getFields())) typesOf.set(f.name, (typesOf.get(f.name) ?? new Set()).add(String(f.type)));
    const skip = new Set([...typesOf].filter(([, types]) => types.size > 1).map(([name]) => name));
    const implementations = possible.map((t) => `... on ${t.name} { ${selection(t, depth, skip)} }`);
    return `__typename ${implementations.join(' ')}`;
  }
  if (!isObjectType(type)) return '';
  const parts = ['__typename'];
  for (const field of Object.values(type.getFields())) {
    if (hasRequiredArgs(field) || field.deprecationReason || skip.has(field.name)) continue;
    const named = getNamedType(field.type);
    const { name } = field;
    if (isNode(named)) parts.push(`${name} { id }`);
    else if ((isObjectType(named) || isInterfaceType(named)) && depth > 0) parts.push(`${name} { ${selection(named, depth - 1)} }`);
  }
  return parts.join(' ');
}

function documentOf(name: string, entry: Case) {
  const field = schema.getQueryType()!.getFields()[name]!;
  const named = getNamedType(field.type);
  const used = [...new Set([...(entry.args ?? '').matchAll(/\$(\w+)/g)].map((m) => m[1]!))];
  const definitions = used.length ? `(${used.map((v) => `$${v}: ${VARIABLES[v]!.type}`).join(', ')})` : '';
  const args = entry.args ? `(${entry.args})` : '';
  // Items with their links, their own objects and lists, and those lists' items' links.
  return { query: `query ${definitions} { ${name}${args} { ${selection(named, 3)} } }`, used };
}

/** Objects in a response: how much data the document read. */
const objectsIn = (value: unknown): number =>
  Array.isArray(value) ? value.reduce((sum: number, v) => sum + objectsIn(v), 0) : value && typeof value === 'object' ? 1 + Object.values(value).reduce((sum: number, v) => sum + objectsIn(v), 0) : 0;

let server: TestServer;
const seeded: Record<'small' | 'large', Seeded> = {} as never;

async function seed(size: number): Promise<Seeded> {
  const tenant = await createTenant(server.app.prisma, { capabilities: [FORECASTING] });
  const ids: Record<string, string[]> = { sku: [] };
  for (let i = 0; i < size; i++) {
    const one = await oneOfEach(server.app, tenant, `${size}-${i}`);
    for (const [type, id] of Object.entries(one)) (ids[type] ??= []).push(id);
    // Units of the same lot not yet in a bin, so putAwayTasks has one task per product.
    await addStock(server.app, tenant.org.id, { productMasterId: one.Product!, locationId: tenant.warehouse.id, lotCode: `L-${size}-${i}` }, { ON_HAND: 3 });
    // A reorder point above the units on hand, so planningRecommendations has one row per product.
    await server.app.prisma.inventoryLevel.updateMany({ where: { productMasterId: one.Product! }, data: { reorderQuantity: 100, maxQuantity: 100 } });
    ids.sku!.push(`NODE-${size}-${i}`);
    await tenant.keyWith(['inventory:read']);
  }
  // More runs of the first scenario, so its run list grows too.
  const first = ids.ForecastScenario![0]!;
  for (let i = 1; i < size; i++) {
    await server.app.prisma.forecastRun.create({
      data: { organizationId: tenant.org.id, scenarioId: first, horizon: 4, levels: [0.8], totalSeries: 0, totalBatches: 0, createdByType: 'USER', createdBy: tenant.admin.id },
    });
  }
  const signIn = await server.call('POST', '/api/auth/sign-in', { body: { email: tenant.admin.email, password: tenant.admin.password } });
  expect(signIn.status).toBe(200);
  return { tenant, ids, session: signIn.body.token };
}

beforeAll(async () => {
  server = await startTestServer();
  seeded.small = await seed(SMALL);
  seeded.large = await seed(LARGE);
}, 300_000);
afterAll(() => server?.close());

describe('Query lists', () => {
  const listFields = Object.values(schema.getQueryType()!.getFields()).filter(returnsList).map((f) => f.name);

  it('every list-returning field of Query has an entry (a case, or the reason it is exempt)', () => {
    expect(listFields.filter((name) => !(name in CASES))).toEqual([]);
    expect(Object.keys(CASES).filter((name) => !listFields.includes(name))).toEqual([]);
  });

  for (const name of listFields) {
    const entry = CASES[name];
    if (!entry || 'exempt' in entry) continue;
    it(`${name}: as many SQL statements for ${LARGE} of everything as for ${SMALL}`, async () => {
      const { query, used } = documentOf(name, entry);
      const run = async (s: Seeded) => {
        const variables = Object.fromEntries(used.map((v) => [v, VARIABLES[v]!.value(s)]));
        const counted = await countStatements(server, () => server.graphql(query, variables, entry.session ? s.session : s.tenant.key), { apiKey: !entry.session });
        expect(counted.result.body.errors, JSON.stringify(counted.result.body.errors)).toBeUndefined();
        return { ...counted, size: objectsIn(counted.result.body.data) };
      };
      const small = await run(seeded.small);
      const large = await run(seeded.large);
      if (!entry.fixedSize) expect(large.size, 'the larger data set answers more').toBeGreaterThan(small.size);
      expect(large.statements, `${query}\n\nsmall:\n${small.sql.join('\n')}\n\nlarge:\n${large.sql.join('\n')}`).toBe(small.statements);
    });
  }
});
