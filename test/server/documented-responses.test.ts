import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRoutes } from '../../rest-adapter/all-routes.js';
import { documentedResponse } from '../../rest-adapter/response-docs.js';
import type { RouteSpec } from '../../rest-adapter/route.js';
import type { Tenant } from '../support/fixtures.js';
import type { TestServer } from '../support/server.js';
import { insertWeeklyDemand } from '../support/demand-history.js';
import { createLocationFor } from '../../src/services/admin/admin.js';
import { processNextBatch } from '../../src/services/forecasting/runs/run-worker.js';
import { addStock } from '../support/stock.js';
import { startServerWithTwoTenants } from '../support/two-tenants.js';

// Every REST route answered once (a success, and a few refusals) and each body parsed with the zod schema the
// route documents for that status (the schema its OpenAPI response is generated from), so the description
// and the answers cannot drift apart. A property the schema does not name fails as well as a missing one.

let server: TestServer;
let a: Tenant;
const checked = new Set<string>();

beforeAll(async () => {
  ({ server, a } = await startServerWithTwoTenants({}, { capabilities: ['ai.forecasting.demand'] }));
});
afterAll(() => server?.close());

const pattern = (route: RouteSpec) => new RegExp(`^${route.path.replace(/:\w+/g, '[^/]+')}$`);

/** The route the router would pick: the first of that method whose path matches (static paths come first). */
function routeOf(method: string, url: string): RouteSpec {
  const path = url.split('?')[0]!;
  const route = allRoutes.find((r) => r.method === method && pattern(r).test(path));
  if (!route) throw new Error(`no route for ${method} ${path}`);
  return route;
}

/** Makes the request, expects `status`, and checks the body against the route's documented schema for it. */
async function call(method: string, url: string, status: number, options: { token?: string; body?: unknown } = {}) {
  const res = await server.call(method, url, { token: a.key, ...options });
  expect(res.status, `${method} ${url}: ${JSON.stringify(res.body)}`).toBe(status);
  const route = routeOf(method, url);
  const schema = documentedResponse(route, status);
  expect(schema, `${method} ${route.path} documents no JSON body for ${status}`).toBeDefined();
  const parsed = schema!.safeParse(res.body);
  expect(parsed.error?.issues ?? [], `${method} ${url}`).toEqual([]);
  // Parsing leaves out what the schema does not name: equal only when every property is documented.
  expect(parsed.data, `${method} ${url}: a property the description does not name`).toEqual(res.body);
  checked.add(`${method} ${route.path}`);
  return res.body;
}

let productId: string;
let lineId: string;
let lotLineId: string;
let levelId: string;

describe('each REST answer matches the schema its route documents', () => {
  it('authentication', async () => {
    const session = await call('POST', '/api/auth/sign-in', 200, { token: undefined, body: { email: a.admin.email, password: a.admin.password } });
    await call('POST', '/api/auth/sign-in', 401, { token: undefined, body: { email: a.admin.email, password: 'wrong password' } });
    await call('POST', '/api/auth/sign-in', 400, { token: undefined, body: {} });
    await call('POST', '/api/auth/sign-out', 200, { token: session.token });
  });

  it('API keys', async () => {
    const token = (await server.call('POST', '/api/auth/sign-in', { body: { email: a.admin.email, password: a.admin.password } })).body.token;
    const created = await call('POST', '/api/admin/api-keys', 201, { token, body: { name: 'checked', scopes: ['inventory:read'], allowedIps: ['10.0.0.0/8'] } });
    await call('GET', '/api/admin/api-keys', 200, { token });
    await call('GET', `/api/admin/api-keys/${created.id}`, 200, { token });
    await call('GET', '/api/admin/api-keys/nope', 404, { token });
    await call('PATCH', `/api/admin/api-keys/${created.id}`, 200, { token, body: { name: 'renamed' } });
    await call('POST', `/api/admin/api-keys/${created.id}/rotate`, 200, { token, body: { gracePeriodSeconds: 60 } });
    await call('POST', `/api/admin/api-keys/${created.id}/revoke`, 200, { token });
    await call('POST', `/api/admin/api-keys/${created.id}/revoke`, 409, { token });
    await call('GET', '/api/admin/api-keys', 403);
  });

  it('webhooks', async () => {
    const E = '/api/webhooks/endpoints';
    const created = await call('POST', E, 201, { body: { url: 'https://93.184.215.14/doc', eventTypes: ['stock.changed'], description: 'Documented' } });
    await call('POST', E, 400, { body: { url: 'https://10.0.0.1/doc', eventTypes: ['*'] } });
    await call('GET', E, 200);
    await call('GET', E, 403, { token: await a.keyWith(['inventory:read']) });
    await call('GET', `${E}/${created.id}`, 200);
    await call('GET', `${E}/nope`, 404);
    await call('PATCH', `${E}/${created.id}`, 200, { body: { eventTypes: ['*'] } });
    await call('PATCH', `${E}/${created.id}`, 400, { body: { eventTypes: [] } });
    await call('POST', `${E}/${created.id}/rotate-secret`, 200, { body: {} });
    // A delivery as the worker writes it (no worker runs here), of an event still in the outbox (replay sends it again).
    const event = await server.app.prisma.domainEvent.create({ data: { organizationId: a.org.id, type: 'stock.changed', payload: { changes: [] } } });
    const delivery = await server.app.prisma.webhookDelivery.create({ data: { organizationId: a.org.id, endpointId: created.id, eventId: event.id, eventType: 'stock.changed', status: 'FAILED' } });
    await server.app.prisma.webhookAttempt.create({ data: { deliveryId: delivery.id, number: 1, statusCode: 500, error: 'Answered 500', durationMs: 4, responseExcerpt: 'nope' } });
    await call('GET', `${E}/${created.id}/deliveries?status=failed`, 200);
    await call('GET', `${E}/${created.id}/deliveries?status=lost`, 400);
    await call('GET', `${E}/${created.id}/deliveries/${delivery.id}`, 200);
    await call('GET', `${E}/${created.id}/deliveries/nope`, 404);
    await call('POST', `${E}/${created.id}/deliveries/${delivery.id}/replay`, 200, { body: {} });
    await call('PATCH', `${E}/${created.id}`, 200, { body: { active: false } });
    await call('POST', `${E}/${created.id}/deliveries/${delivery.id}/replay`, 409, { body: {} });
    await call('DELETE', `${E}/${created.id}`, 200);
    await call('DELETE', `${E}/${created.id}`, 404);
  });

  it('alerts', async () => {
    const R = '/api/alerts/rules';
    const rule = await call('POST', R, 201, { body: { kind: 'LOTS_EXPIRING', threshold: 30, severity: 'CRITICAL' } });
    await call('POST', R, 400, { body: { kind: 'LOTS_EXPIRING' } });
    await call('POST', R, 404, { body: { kind: 'AVAILABLE_BELOW_MIN', locationId: 'nope' } });
    await call('POST', R, 403, { token: await a.keyWith(['reports:read']), body: { kind: 'IMPORT_FAILED' } });
    await call('GET', R, 200);
    await call('GET', `${R}/${rule.id}`, 200);
    await call('GET', `${R}/nope`, 404);
    await call('PATCH', `${R}/${rule.id}`, 200, { body: { threshold: 10, enabled: false } });
    await call('PATCH', `${R}/${rule.id}`, 400, { body: { threshold: 0 } });
    // An alert as the evaluator writes it (no evaluator runs here).
    const alert = await server.app.prisma.alert.create({
      data: { organizationId: a.org.id, ruleId: rule.id, kind: 'LOTS_EXPIRING', severity: 'CRITICAL', dedupKey: 'lot:loc', locationId: a.warehouse.id, subjectType: 'LOT', subjectId: 'lot', message: 'Expires', details: { quantity: 1 } },
    });
    await call('GET', `/api/alerts?status=open&kind=lots_expiring&severity=critical&locationId=${a.warehouse.id}&since=2026-01-01T00:00:00Z`, 200);
    await call('GET', '/api/alerts?status=lost', 400);
    await call('GET', '/api/alerts?productId=nope', 404);
    await call('GET', `/api/alerts/${alert.id}`, 200);
    await call('GET', '/api/alerts/nope', 404);
    await call('POST', `/api/alerts/${alert.id}/acknowledge`, 200, { body: {} });
    await call('POST', `/api/alerts/${alert.id}/acknowledge`, 409, { body: {} });
    await call('POST', `/api/alerts/${alert.id}/resolve`, 400, { body: { note: 'x'.repeat(1001) } });
    await call('POST', `/api/alerts/${alert.id}/resolve`, 200, { body: { note: 'done' } });
    await call('POST', '/api/alerts/nope/resolve', 404, { body: {} });
    await call('DELETE', `${R}/${rule.id}`, 200);
    await call('DELETE', `${R}/${rule.id}`, 404);
  });

  it('products and locations', async () => {
    const product = await call('POST', '/api/products', 201, { body: { sku: 'DOC-1', name: 'Documented', description: 'checked' } });
    productId = product.id;
    await call('POST', '/api/products', 201, { body: { sku: 'DOC-2', name: 'No description' } });
    await call('GET', '/api/products?limit=5', 200);
    await call('GET', `/api/products/${productId}`, 200);
    await call('GET', '/api/products/nope', 404);
    await call('PATCH', `/api/products/${productId}`, 200, { body: { name: 'Renamed' } });
    await call('GET', '/api/products?limit=abc', 400);
    await call('GET', '/api/products', 401, { token: 'scm_not_a_key' });
    await call('GET', '/api/inventory/locations', 200);
  });

  it('stock lines, availability and moves', async () => {
    lineId = (await addStock(server.app, a.org.id, { productMasterId: productId, locationId: a.warehouse.id }, { ON_HAND: 50, RESERVED: 5 })).id;
    lotLineId = (await addStock(server.app, a.org.id, { productMasterId: productId, locationId: a.warehouse.id, lotCode: 'LOT-1', expiryDate: '2099-12-31', binCode: 'B1' }, { ON_HAND: 10 })).id;
    await call('GET', '/api/inventory?limit=10', 200);
    await call('GET', `/api/inventory/availability?productMasterId=${productId}`, 200);
    await call('GET', `/api/inventory/availability?productMasterId=${productId}&summary=true&includeStockLines=true`, 200);
    await call('GET', `/api/inventory/availability?locationId=${a.warehouse.id}&summary=true`, 200);
    await call('GET', '/api/inventory/availability', 400);
    await call('POST', '/api/inventory/availability/check', 200, { body: { items: [{ sku: 'DOC-1', locationId: 'WH1', quantity: 3 }, { sku: 'NONE', locationId: a.warehouse.id, quantity: 1 }] } });
    await call('GET', `/api/inventory/availability/${lotLineId}`, 200);
    await call('GET', `/api/inventory/lot-control/validate?productMasterId=${productId}&locationId=${a.warehouse.id}&quantity=3`, 200);
    await call('POST', '/api/inventory/lot-control/validate', 200, { body: { productMasterId: productId, locationId: a.warehouse.id, lotCode: 'LOT-1' } });
    await call('POST', '/api/inventory/lot-control/validate', 400, { body: { productMasterId: productId } });
    await call('GET', '/api/inventory/expired?asOf=2100-01-01', 200);
    await call('GET', '/api/inventory/expired?lotId=unknown', 404);
    await call('POST', '/api/inventory/expired/mark-expired', 200, { body: { lines: [{ stockLineId: lotLineId, quantity: 1 }], force: true } });
    await call('POST', '/api/inventory/expired/mark-consumed', 200, { body: { lines: [{ stockLineId: lotLineId, quantity: 1 }], force: true } });
    await call('POST', '/api/inventory/expired/mark-consumed', 400, { body: { lines: [{ stockLineId: lotLineId }] } });
    await call('POST', '/api/inventory/expired/transfer-destruction', 200, { body: { lines: [{ stockLineId: lotLineId, quantity: 1 }], force: true, documentNumber: 'DOC-D1' } });
    await call('POST', '/api/inventory/expired/transfer-destruction', 400, { body: { lines: [{ stockLineId: lotLineId }] } });
    await call('POST', `/api/inventory/availability/${lineId}`, 200, { body: { action: 'RESERVE', quantity: 2 } });
    await call('POST', `/api/inventory/availability/${lineId}`, 400, { body: { action: 'PICK', quantity: 1000 } });
    await call('GET', `/api/inventory/put-away?locationId=${a.warehouse.id}`, 200);
    await call('GET', '/api/inventory/put-away', 400);
    await call('GET', '/api/inventory/put-away?locationId=nope', 404);
    await call('POST', '/api/inventory/put-away', 200, { body: { locationId: a.warehouse.id, lines: [{ stockLineId: lineId, quantity: 1, binCode: 'B1' }] } });
    await call('POST', '/api/inventory/put-away', 400, { body: { locationId: a.warehouse.id, lines: [{ stockLineId: lineId, quantity: 1000, binCode: 'B1' }] } });
    await server.app.prisma.inventoryLevel.upsert({
      where: { productMasterId_locationId: { productMasterId: productId, locationId: a.warehouse.id } },
      create: { organizationId: a.org.id, productMasterId: productId, locationId: a.warehouse.id, reorderQuantity: 1000, maxQuantity: 1000 },
      update: { reorderQuantity: 1000, maxQuantity: 1000 },
    });
    await call('GET', `/api/planning/recommendations?locationId=${a.warehouse.id}`, 200);
    await call('GET', '/api/planning/recommendations', 400);
    await call('GET', '/api/planning/recommendations?locationId=nope', 404);
    await call('GET', `/api/reports/expiry-risk?locationId=${a.warehouse.id}&from=2099-12-01&to=2099-12-31`, 200);
    await call('GET', '/api/reports/expiry-risk', 400);
    await call('GET', '/api/reports/expiry-risk?locationId=nope', 404);
    await call('GET', `/api/inventory/replenishment/config?locationId=${a.warehouse.id}`, 200);
    await call('GET', '/api/inventory/replenishment/config', 400);
    await call('GET', '/api/inventory/replenishment/config?locationId=nope', 404);
    await call('POST', '/api/inventory/replenishment/config', 200, { body: { locationId: a.warehouse.id, method: 'FORECAST_COVER', safetyStockDays: 2 } });
    await call('GET', `/api/inventory/replenishment/config?locationId=${a.warehouse.id}`, 200);
    await call('POST', '/api/inventory/replenishment/config', 400, { body: { locationId: a.warehouse.id, reviewPeriodDays: 0 } });
    await call('POST', '/api/inventory/replenishment/config', 404, { body: { locationId: 'nope' } });
    await call('POST', '/api/inventory/replenishment/suggestions', 200, { body: { locationId: a.warehouse.id } });
    await call('POST', '/api/inventory/replenishment/suggestions', 400, { body: { locationId: a.warehouse.id, safetyStockDays: -1 } });
    await call('POST', '/api/inventory/replenishment/suggestions', 404, { body: { locationId: 'nope' } });
    const supplier = await server.app.prisma.supplier.create({ data: { organizationId: a.org.id, code: 'DOC-SUP', name: 'Doc supplier', leadTimeDays: 5 } });
    const item = { productMasterId: productId, locationId: a.warehouse.id, quantity: 3, sourceType: 'SUPPLIER', supplierId: supplier.id, needBy: '2031-01-01', reason: 'Low' };
    const [record] = (await call('POST', '/api/inventory/replenishment', 200, { body: { action: 'create', items: [item] } })).data;
    await call('POST', '/api/inventory/replenishment', 400, { body: { action: 'create', items: [{ ...item, quantity: 0 }] } });
    await call('POST', '/api/inventory/replenishment', 409, { body: { action: 'convert', id: record.id } });
    await call('POST', '/api/inventory/replenishment', 200, { body: { action: 'approve', id: record.id } });
    await call('POST', '/api/inventory/replenishment', 200, { body: { action: 'convert', id: record.id } });
    await call('POST', '/api/inventory/replenishment', 404, { body: { action: 'cancel', id: 'nope' } });
    await call('GET', `/api/inventory/replenishment?locationId=${a.warehouse.id}&status=ORDERED`, 200);
    await call('GET', '/api/inventory/replenishment?limit=0', 400);
    await call('GET', '/api/inventory/replenishment?locationId=nope', 404);
    const ward = await server.app.prisma.location.create({ data: { organizationId: a.org.id, code: 'DOC-WARD', name: 'Doc ward' } });
    const requestBody = { requestingLocationId: ward.id, supplyingLocationId: a.warehouse.id, neededBy: '2031-01-01', lines: [{ productMasterId: productId, quantityRequested: 4 }] };
    const request = await call('POST', '/api/stock-requests', 201, { body: requestBody });
    await call('POST', '/api/stock-requests', 400, { body: { ...requestBody, lines: [] } });
    await call('POST', '/api/stock-requests', 404, { body: { ...requestBody, requestingLocationId: 'nope' } });
    await call('GET', `/api/stock-requests?status=draft&requestingLocationId=${ward.id}`, 200);
    await call('GET', '/api/stock-requests?limit=0', 400);
    await call('GET', '/api/stock-requests?supplyingLocationId=nope', 404);
    await call('GET', `/api/stock-requests/${request.id}`, 200);
    await call('GET', '/api/stock-requests/nope', 404);
    await call('PATCH', `/api/stock-requests/${request.id}`, 200, { body: { priority: 'HIGH' } });
    await call('PATCH', `/api/stock-requests/${request.id}`, 400, { body: { priority: 'SOON' } });
    await call('POST', `/api/stock-requests/${request.id}/lines`, 200, { body: { lines: [{ productMasterId: productId, quantityRequested: 5 }] } });
    await call('POST', `/api/stock-requests/${request.id}/lines`, 400, { body: { lines: [] } });
    await call('GET', `/api/stock-requests/${request.id}/lines`, 200);
    await call('POST', `/api/stock-requests/${request.id}/comment`, 201, { body: { note: 'Doc comment' } });
    await call('POST', `/api/stock-requests/${request.id}/comment`, 400, { body: {} });
    await call('POST', `/api/stock-requests/${request.id}/approve`, 409, { body: {} });
    await call('POST', `/api/stock-requests/${request.id}/submit`, 200, { body: {} });
    await call('POST', `/api/stock-requests/${request.id}/reject`, 400, { body: {} });
    await call('POST', `/api/stock-requests/${request.id}/approve`, 200, { body: { lines: [{ productMasterId: productId, quantityApproved: 3 }] } });
    await call('POST', `/api/stock-requests/${request.id}/rollback`, 200, { body: {} });
    await call('POST', `/api/stock-requests/${request.id}/reject`, 200, { body: { reason: 'Doc reason' } });
    await call('POST', `/api/stock-requests/${request.id}/rollback`, 409, { body: {} });
    await call('GET', `/api/stock-requests/${request.id}/status`, 200);
    await call('GET', `/api/stock-requests/${request.id}/status?limit=0`, 400);
    const order = await server.app.prisma.salesOrder.create({
      data: { organizationId: a.org.id, externalId: 'DOC-SO', fulfillmentLocationId: a.warehouse.id, lines: { create: { lineNumber: 1, productMasterId: productId, requestedQty: 2 } } },
    });
    const shipment = await call('POST', '/api/shipments', 201, { body: { salesOrderId: order.id } });
    await call('POST', '/api/shipments', 400, { body: { salesOrderId: 'nope' } });
    await call('POST', '/api/shipments', 409, { body: { salesOrderId: order.id } });
    await call('GET', `/api/shipments?status=reserved&locationId=${a.warehouse.id}`, 200);
    await call('GET', '/api/shipments?limit=0', 400);
    await call('GET', '/api/shipments?locationId=nope', 404);
    await call('GET', `/api/shipments/${shipment.id}`, 200);
    await call('GET', '/api/shipments/nope', 404);
    await call('POST', `/api/shipments/${shipment.id}/pack`, 409, { body: { packageCount: 1 } });
    await call('POST', `/api/shipments/${shipment.id}/pick`, 200, { body: {} });
    await call('POST', `/api/shipments/${shipment.id}/pack`, 400, { body: { packageCount: 0 } });
    await call('POST', `/api/shipments/${shipment.id}/pack`, 200, { body: { packageCount: 1, weightKg: 2.5 } });
    await call('POST', `/api/shipments/${shipment.id}/ship`, 200, { body: { carrier: 'UPS', trackingNumber: '1Z' } });
    await call('POST', `/api/shipments/${shipment.id}/deliver`, 200, { body: {} });
    await call('POST', `/api/shipments/${shipment.id}/cancel`, 409, { body: {} });
    await call('POST', '/api/shipments/nope/cancel', 404, { body: {} });
    const bookingBody = { customer: 'Doc Wholesale', locationId: a.warehouse.id, week: '2099-W02', lines: [{ productId, quantity: 999_999 }] };
    const booking = await call('POST', '/api/bookings', 201, { body: bookingBody });
    await call('POST', '/api/bookings', 400, { body: { ...bookingBody, week: '2099-01-06' } });
    await call('GET', `/api/bookings?status=draft&locationId=${a.warehouse.id}`, 200);
    await call('GET', '/api/bookings?limit=0', 400);
    await call('GET', '/api/bookings?locationId=nope', 404);
    await call('GET', `/api/bookings/${booking.id}`, 200);
    await call('GET', '/api/bookings/nope', 404);
    await call('PATCH', `/api/bookings/${booking.id}`, 200, { body: { note: 'Dock 2' } });
    await call('PATCH', `/api/bookings/${booking.id}`, 400, { body: { lines: [] } });
    await call('PATCH', '/api/bookings/nope', 404, { body: { note: 'x' } });
    await call('POST', `/api/bookings/${booking.id}/fulfil`, 409, { body: {} });
    await call('POST', `/api/bookings/${booking.id}/confirm`, 200, { body: {} });
    await call('PATCH', `/api/bookings/${booking.id}`, 409, { body: { note: 'x' } });
    await call('POST', `/api/bookings/${booking.id}/reserve`, 200, { body: {} });
    await call('POST', `/api/bookings/${booking.id}/fulfil`, 400, { body: {} });
    await call('POST', `/api/bookings/${booking.id}/cancel`, 200, { body: {} });
    await call('POST', `/api/bookings/${booking.id}/confirm`, 409, { body: {} });
    await call('POST', '/api/bookings/nope/reserve', 404, { body: {} });
    const other = await call('POST', '/api/stock-requests', 201, { body: requestBody });
    await call('POST', `/api/stock-requests/${other.id}/status`, 200, { body: { status: 'CANCELLED' } });
    await call('POST', `/api/stock-requests/${other.id}/status`, 400, { body: { status: 'LOST' } });
    await call('DELETE', `/api/stock-requests/${other.id}`, 409);
    const third = await call('POST', '/api/stock-requests', 201, { body: requestBody });
    await call('DELETE', `/api/stock-requests/${third.id}`, 200);
    await call('GET', `/api/stock-requests?requesterId=${request.requesterId}&from=2020-01-01&to=2030-01-01`, 200);
    await call('GET', '/api/stock-requests?from=2030-01-02&to=2030-01-01', 400);
    await call('GET', `/api/stock-requests/by-category?requestingLocationId=${ward.id}`, 200);
    await call('GET', '/api/stock-requests/by-category?status=lost', 400);
    await call('GET', '/api/stock-requests/by-category?requestingLocationId=nope', 404);
    await call('GET', `/api/stock-requests/dashboard?locationId=${ward.id}`, 200);
    await call('GET', '/api/stock-requests/dashboard?from=2026-02-30', 400);
    await call('GET', '/api/stock-requests/dashboard?locationId=nope', 404);
    await call('GET', '/api/stock-requests/filters', 200);
    await call('GET', '/api/stock-requests/filters?status=draft', 400);
    const pending = await call('POST', '/api/stock-requests', 201, { body: requestBody });
    await call('POST', `/api/stock-requests/${pending.id}/submit`, 200, { body: {} });
    await call('GET', '/api/stock-requests/pending-approvals', 200);
    await call('GET', '/api/stock-requests/pending-approvals?limit=0', 400);
    await call('GET', '/api/stock-requests/pending-approvals?supplyingLocationId=nope', 404);
    await call('GET', `/api/stock-requests/products/search?requestingLocationId=${ward.id}&supplyingLocationId=${a.warehouse.id}`, 200);
    await call('GET', `/api/stock-requests/products/search?requestingLocationId=${ward.id}`, 400);
    await call('GET', `/api/stock-requests/products/search?requestingLocationId=${ward.id}&supplyingLocationId=nope`, 404);
    await server.app.prisma.inventoryLevel.create({ data: { organizationId: a.org.id, productMasterId: productId, locationId: ward.id, reorderQuantity: 5, maxQuantity: 10 } });
    const stocklist = await call('GET', `/api/stock-requests/products/stocklist?requestingLocationId=${ward.id}`, 200);
    expect(stocklist.data[0]).toMatchObject({ productMasterId: productId, suggestedQuantity: 10, needBy: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
    await call('GET', `/api/stock-requests/products/stocklist?requestingLocationId=${ward.id}&supplyingLocationId=${a.warehouse.id}`, 200);
    await call('GET', '/api/stock-requests/products/stocklist', 400);
    await call('GET', '/api/stock-requests/products/stocklist?requestingLocationId=nope', 404);
    const toFulfil = await call('POST', '/api/stock-requests', 201, { body: { ...requestBody, lines: [{ productMasterId: productId, quantityRequested: 2 }] } });
    await call('POST', `/api/stock-requests/${toFulfil.id}/fulfil`, 409, { body: {} });
    await call('POST', `/api/stock-requests/${toFulfil.id}/submit`, 200, { body: {} });
    await call('POST', `/api/stock-requests/${toFulfil.id}/approve`, 200, { body: {} });
    await call('POST', `/api/stock-requests/${toFulfil.id}/fulfil`, 400, { body: { lines: [{ productMasterId: productId, quantity: 3 }] } });
    await call('POST', `/api/stock-requests/nope/fulfil`, 404, { body: {} });
    await call('POST', `/api/stock-requests/${toFulfil.id}/fulfil`, 200, { body: { lines: [{ productMasterId: productId, quantity: 1 }], note: 'Doc fulfil' } });
    await call('POST', `/api/stock-requests/${toFulfil.id}/status`, 200, { body: { status: 'PARTIALLY_FULFILLED' } });
    await call('GET', `/api/stock-requests/${toFulfil.id}/status`, 200);
  });

  it('adjustments, counts, receipts, lot corrections and the ledger', async () => {
    await call('GET', '/api/inventory/adjustments/reason-codes', 200);
    await call('POST', '/api/inventory/adjustments', 200, { body: { inventoryItemId: lineId, newQtyOnHand: 45, reasonCodeId: 'DAMAGED', comment: 'dropped' } });
    await call('POST', '/api/inventory/adjust', 200, { body: { inventoryItemId: lineId, delta: 3, reasonCodeId: 'FOUND' } });
    await call('POST', '/api/inventory/adjustments', 400, { body: { inventoryItemId: 'nope', newQtyOnHand: 1, reasonCodeId: 'DAMAGED' } });
    await call('POST', '/api/inventory/record-stock', 200, { body: { lines: [{ productMasterId: productId, locationId: a.warehouse.id, quantity: 4, lotCode: 'LOT-2', expiryDate: '2099-06-30' }] } });
    await call('GET', `/api/inventory/adjustments/record-stock?locationId=${a.warehouse.id}`, 200);
    await call('POST', '/api/inventory/adjustments/record-stock', 200, { body: { lines: [{ productMasterId: productId, locationId: a.warehouse.id, quantity: 9, lotCode: 'LOT-1', binCode: 'B1' }] } });
    await call('POST', '/api/inventory/adjustments/lot-correction', 200, { body: { inventoryItemId: lotLineId, toLotCode: 'LOT-3', toExpiryDate: '2099-01-31', quantity: 2 } });
    await call('GET', '/api/inventory/adjustments?limit=5', 200);
    await call('GET', '/api/inventory/adjustments?bucket=ALL', 200);
  });

  it('inventory levels', async () => {
    const level = await call('POST', '/api/inventory-levels', 200, { body: { productMasterId: productId, locationId: a.warehouse.id, minQuantity: 5, reorderQuantity: 10, maxQuantity: 50, abcClass: 'A' } });
    levelId = level.id;
    await call('PATCH', `/api/inventory-levels/${levelId}`, 200, { body: { maxQuantity: 100, comments: 'checked' } });
    await call('GET', `/api/products/${productId}/inventory-levels`, 200);
    await call('DELETE', `/api/inventory-levels/${levelId}`, 200);
    await call('DELETE', `/api/inventory-levels/${levelId}`, 404);
  });

  it('cycle counts', async () => {
    await call('GET', '/api/inventory/cycle-count/abc', 200);
    await call('POST', '/api/inventory/cycle-count/abc', 200, { body: { aFrequencyDays: 20, reclassify: { locationId: a.warehouse.id } } });
    await call('POST', '/api/inventory/cycle-count/abc', 400, { body: { aPercent: 1 } });
    await call('GET', `/api/inventory/cycle-count?locationId=${a.warehouse.id}`, 200);
    await call('GET', '/api/inventory/cycle-count?mode=abc-config', 200);
    await call('GET', '/api/inventory/cycle-count', 400);
    const batch = await call('POST', '/api/inventory/cycle-count', 201, { body: { locationId: a.warehouse.id, productMasterIds: [productId] } });
    await call('POST', '/api/inventory/cycle-count', 409, { body: { locationId: a.warehouse.id, productMasterIds: [productId] } });
    await call('GET', `/api/inventory/cycle-count/${batch.id}`, 200);
    await call('POST', `/api/inventory/cycle-count/${batch.id}`, 200, { body: { action: 'record', counts: [{ lineId: batch.lines[0].id, countedQty: 1 }] } });
    await call('GET', `/api/inventory/cycle-count?locationId=${a.warehouse.id}&mode=batches`, 200);
    await call('GET', `/api/inventory/cycle-count/blind-form?locationId=${a.warehouse.id}&batchId=${batch.id}`, 200);
    await call('GET', `/api/inventory/cycle-count?locationId=${a.warehouse.id}&mode=to-resolve`, 200);
    await call('GET', `/api/inventory/cycle-count?locationId=${a.warehouse.id}&mode=suggestions`, 200);
    await call('GET', `/api/inventory/cycle-count/accuracy?locationId=${a.warehouse.id}`, 200);
    await call('GET', '/api/inventory/cycle-count/accuracy?from=2026-03-02&to=2026-03-01', 400);
    await call('POST', '/api/inventory/cycle-count/resolve', 200, { body: { resolutions: [{ lineId: batch.lines[0].id, action: 'REJECT' }] } });
    await call('POST', '/api/inventory/cycle-count/resolve', 409, { body: { resolutions: [{ lineId: batch.lines[0].id, action: 'REJECT' }] } });
    await call('POST', `/api/inventory/cycle-count/${batch.id}`, 200, { body: { action: 'cancel' } });
    await call('POST', `/api/inventory/cycle-count/${batch.id}`, 409, { body: { action: 'cancel' } });
    await call('GET', '/api/inventory/cycle-count/nope', 404);
  });

  it('channel ATP, analytics and the inventory summary widget', async () => {
    await call('GET', `/api/inventory/channel-location?locationId=${a.warehouse.id}`, 200);
    await call('GET', `/api/inventory/channel-location/drilldown?locationId=${a.warehouse.id}&productMasterId=${productId}`, 200);
    await call('GET', '/api/inventory/channel-location', 400);
    await call('GET', '/api/inventory/channel/summary', 200);
    await call('GET', '/api/inventory/analytics', 200);
    await call('GET', `/api/inventory/analytics?locationId=${a.warehouse.id}&fromDate=2020-01-01&toDate=2030-01-01`, 200);
    await call('GET', `/api/dashboard/widgets/inventory-summary?locationId=${a.warehouse.id}`, 200);
    await call('GET', `/api/dashboard/widgets/inventory-summary?locationId=${a.warehouse.id}&asOf=${new Date().toISOString()}`, 200);
    await call('GET', '/api/dashboard/widgets/inventory-summary', 400);
    await call('GET', '/api/dashboard/widgets/inventory-summary?locationId=nope', 404);
  });

  it('inventory holds', async () => {
    const held = await addStock(server.app, a.org.id, { productMasterId: productId, locationId: a.warehouse.id, lotCode: 'HOLD-1', expiryDate: '2098-01-01' }, { ON_HAND: 4 });
    const hold = await call('POST', '/api/inventory/holds', 201, { body: { scope: 'STOCK_LINE', stockLineId: held.id, quantity: 2, reasonCode: 'QC', expiresAt: '2099-01-01T00:00:00Z' } });
    await call('POST', '/api/inventory/holds', 400, { body: { scope: 'LOT' } });
    await call('POST', '/api/inventory/holds', 400, { body: { scope: 'STOCK_LINE', stockLineId: held.id, quantity: 99, reasonCode: 'QC' } });
    await call('GET', `/api/inventory/holds?stockLineId=${held.id}&status=active`, 200);
    await call('GET', '/api/inventory/holds?lotId=nope', 404);
    await call('GET', '/api/inventory/holds?limit=0', 400);
    await call('POST', '/api/inventory/holds/release', 200, { body: { holdId: hold.id, quantity: 1, note: 'checked' } });
    await call('POST', '/api/inventory/holds/release', 400, { body: { holdId: 'nope' } });
    await call('POST', '/api/inventory/holds/release', 200, { body: { holdId: hold.id } });
    await call('POST', '/api/inventory/holds/release', 409, { body: { holdId: hold.id } });
  });

  it('inventory transfers, in-transit stock and bins', async () => {
    const store = await createLocationFor(server.operator, { organizationId: a.org.id, code: 'DOC-ST', name: 'Documented store' });
    const moved = await addStock(server.app, a.org.id, { productMasterId: productId, locationId: a.warehouse.id, lotCode: 'TR-1', expiryDate: '2098-01-01', binCode: 'TR-A' }, { ON_HAND: 8 });
    const toBin = (await addStock(server.app, a.org.id, { productMasterId: productId, locationId: a.warehouse.id, binCode: 'TR-B' }, { ON_HAND: 1 })).binId;
    const body = { sourceLocationId: a.warehouse.id, destLocationId: store.id, lines: [{ productMasterId: productId, quantity: 3, lotId: moved.lotId }], reference: 'DOC', notes: 'checked', expectedAt: '2099-01-01' };
    const transfer = await call('POST', '/api/inventory/transfers', 201, { body });
    await call('POST', '/api/inventory/transfers', 400, { body: { ...body, lines: [] } });
    await call('POST', '/api/inventory/transfers', 400, { body: { ...body, destLocationId: 'nope' } });
    await call('POST', `/api/inventory/transfers/${transfer.id}`, 200, { body: { action: 'update', notes: 'again' } });
    await call('POST', `/api/inventory/transfers/${transfer.id}`, 409, { body: { action: 'receive' } });
    const shipped = await call('POST', `/api/inventory/transfers/${transfer.id}`, 200, { body: { action: 'ship' } });
    await call('POST', `/api/inventory/transfers/${transfer.id}`, 400, { body: { action: 'receive', lines: [{ lineId: shipped.lines[0].id, quantity: 99 }] } });
    await call('POST', `/api/inventory/transfers/${transfer.id}`, 200, { body: { action: 'receive', lines: [{ lineId: shipped.lines[0].id, quantity: 1 }] } });
    await call('POST', '/api/inventory/transfers/nope', 404, { body: { action: 'cancel' } });
    await call('GET', `/api/inventory/transfers/${transfer.id}`, 200);
    await call('GET', '/api/inventory/transfers/nope', 404);
    await call('GET', `/api/inventory/transfers?status=IN_TRANSIT&limit=5`, 200);
    await call('GET', '/api/inventory/transfers?limit=0', 400);
    await call('GET', '/api/inventory/transfers?locationId=nope', 404);
    await call('GET', `/api/inventory/transfers/in-transit?locationId=${store.id}`, 200);
    await call('GET', '/api/inventory/transfers/in-transit?productMasterId=nope', 404);
    await call('GET', `/api/inventory/transfers/bins?locationId=${a.warehouse.id}`, 200);
    await call('GET', '/api/inventory/transfers/bins', 400);
    await call('GET', '/api/inventory/transfers/bins?locationId=nope', 404);
    const move = { locationId: a.warehouse.id, productMasterId: productId, fromBinId: moved.binId, toBinId: toBin, quantity: 1 };
    await call('POST', '/api/inventory/transfers/bins', 200, { body: move });
    await call('POST', '/api/inventory/transfers/bins', 400, { body: { ...move, quantity: 1000 } });
    await call('POST', '/api/inventory/transfers/bins', 400, { body: { ...move, toBinId: 'nope' } });
  });

  it('forecast events', async () => {
    const event = await call('POST', '/api/forecast/events', 201, {
      body: { name: 'Spring sale', type: 'PROMOTION', startsAt: '2030-03-01T00:00:00Z', endsAt: '2030-03-10T00:00:00Z', value: { liftPct: 0.2 }, productMasterId: productId },
    });
    await call('POST', '/api/forecast/events', 201, { body: { name: 'Holiday', type: 'HOLIDAY', startsAt: '2030-03-05T00:00:00Z', endsAt: '2030-03-06T00:00:00Z', locationId: a.warehouse.id } });
    await call('GET', '/api/forecast/events?from=2030-01-01T00:00:00Z&to=2030-12-31T00:00:00Z', 200);
    await call('GET', `/api/forecast/events/${event.id}`, 200);
    await call('PUT', `/api/forecast/events/${event.id}`, 200, { body: { name: 'Spring sale 2' } });
    await call('PATCH', `/api/forecast/events/${event.id}`, 200, { body: { value: null } });
    await call('DELETE', `/api/forecast/events/${event.id}`, 200);
    await call('GET', `/api/forecast/events/${event.id}`, 404);
  });

  it('forecast scenarios and the change history', async () => {
    const body = { name: 'Documented', type: 'PROMOTIONAL', description: 'checked', assumptions: { narrative: 'n', globalLiftPct: 0.1, includedEventIds: [] } };
    const scenario = await call('POST', '/api/forecast/scenarios', 201, { body });
    await call('POST', '/api/forecast/scenarios', 400, { body: { name: 'x', type: 'CUSTOM', assumptions: { globalLiftPct: 9 } } });
    await call('GET', '/api/forecast/scenarios?includeArchived=true', 200);
    await call('GET', `/api/forecast/scenarios/${scenario.id}`, 200);
    await call('GET', '/api/forecast/scenarios/nope', 404);
    await call('PUT', `/api/forecast/scenarios/${scenario.id}`, 200, { body: { name: 'Replaced', type: 'CUSTOM' } });
    await call('PATCH', `/api/forecast/scenarios/${scenario.id}`, 200, { body: { description: 'patched' } });
    await call('POST', `/api/forecast/scenarios/${scenario.id}/publish`, 200);
    await call('POST', `/api/forecast/scenarios/${scenario.id}/publish`, 409);
    await call('PATCH', `/api/forecast/scenarios/${scenario.id}`, 409, { body: { name: 'late' } });
    await call('DELETE', `/api/forecast/scenarios/${scenario.id}`, 200);
    await call('DELETE', `/api/forecast/scenarios/${scenario.id}`, 409);
    await call('GET', `/api/forecast/change-history?scenarioId=${scenario.id}&limit=10`, 200);
    await call('GET', '/api/forecast/change-history?scenarioId=nope', 404);
    await call('GET', '/api/forecast/change-history?limit=0', 400);
  });

  it('forecasts', async () => {
    const values = Array.from({ length: 30 }, (_, i) => 10 + (i % 4));
    await insertWeeklyDemand(server.app.prisma, { organizationId: a.org.id, productMasterId: productId, locationId: a.warehouse.id, firstWeek: '2025-01-06', values });
    for (const startsAt of ['2025-02-03', '2025-03-10', '2025-04-14']) {
      await call('POST', '/api/forecast/events', 201, { body: { name: 'Past promo', type: 'PROMOTION', startsAt: `${startsAt}T00:00:00Z`, endsAt: `${startsAt}T23:00:00Z`, productMasterId: productId } });
    }
    await call('GET', '/api/forecast/events/learned-lifts', 200);
    await call('GET', `/api/forecast/events/learned-lifts?type=PROMOTION&productMasterId=${productId}&before=2025-06-01`, 200);
    await call('GET', '/api/forecast/events/learned-lifts?type=PARTY', 400);
    await call('GET', '/api/forecast/events/learned-lifts?locationId=nope', 404);
    await call('GET', `/api/forecast?productMasterId=${productId}&horizon=3&levels=50,80`, 200);
    await call('GET', '/api/forecast?horizon=105', 400);
    await call('GET', '/api/forecast?productMasterId=nope', 404);
    await call('GET', `/api/forecast/channel-projection?productMasterId=${productId}&horizon=3&shareWeeks=8`, 200);
    await call('GET', '/api/forecast/channel-projection?shareWeeks=0', 400);
    await call('GET', '/api/forecast/channel-projection?locationId=nope', 404);
    await call('GET', `/api/forecast/long-term?productMasterId=${productId}&months=13&levels=80`, 200);
    await call('GET', '/api/forecast/long-term?months=25', 400);
    await call('GET', '/api/forecast/long-term?productMasterId=nope', 404);
    const scenario = async (globalLiftPct: number) =>
      (await call('POST', '/api/forecast/scenarios', 201, { body: { name: `Lift ${globalLiftPct}`, type: 'CUSTOM', assumptions: { globalLiftPct } } })).id as string;
    const [base, up] = [await scenario(0), await scenario(0.1)];
    await call('GET', `/api/forecast?productMasterId=${productId}&horizon=2&scenarioId=${up}`, 200);
    await call('GET', '/api/forecast?scenarioId=nope', 404);
    await call('POST', '/api/forecast/scenarios/compare', 200, { body: { scenarioIds: [base, up], productMasterId: productId, horizon: 2 } });
    await call('POST', '/api/forecast/scenarios/compare', 400, { body: { scenarioIds: [base] } });
    await call('POST', '/api/forecast/scenarios/compare', 404, { body: { scenarioIds: [base, 'nope'] } });
    await call('GET', '/api/forecast/accuracy?from=2025-06-02&groupBy=total', 200);
    await call('GET', `/api/forecast/accuracy?source=ENGINE&from=2025-06-02&horizon=3&groupBy=method&productMasterId=${productId}`, 200);
    await call('GET', '/api/forecast/accuracy?source=ENGINE', 400);
    const run = await call('POST', `/api/forecast/scenarios/${up}/generate`, 202, { body: { productMasterId: productId, horizon: 2, levels: '80' } });
    await call('POST', `/api/forecast/scenarios/${up}/generate`, 400, { body: { horizon: 0 } });
    await call('POST', '/api/forecast/scenarios/nope/generate', 404);
    while (await processNextBatch(server.app, { leaseMs: 60_000 }));
    await call('GET', run.statusUrl, 200);
    await call('GET', '/api/forecast/runs/nope', 404);
    await call('GET', `/api/forecast/runs/${run.id}/series?limit=5`, 200);
    await call('GET', `/api/forecast/runs/${run.id}/series?limit=0`, 400);
    await call('GET', '/api/forecast/runs/nope/series', 404);
    await call('GET', `/api/forecast/scenarios/${up}/runs`, 200);
    await call('GET', `/api/forecast/scenarios/${up}/runs?page=0`, 400);
    await call('GET', '/api/forecast/scenarios/nope/runs', 404);
    await call('GET', `/api/forecast/accuracy?source=STORED&runId=${run.id}&groupBy=method`, 200);
    await call('GET', '/api/forecast/accuracy?locationId=nope', 404);
    const point = { productMasterId: productId, locationId: a.warehouse.id, periodStart: '2025-08-04', quantity: 7 };
    const override = await call('PUT', '/api/forecast/overrides', 200, { body: { ...point, scenarioId: up, note: 'doc' } });
    await call('PUT', '/api/forecast/overrides', 400, { body: { ...point, periodStart: '2025-08-05' } });
    await call('PUT', '/api/forecast/overrides', 400, { body: { ...point, locationId: 'nope' } });
    await call('GET', `/api/forecast/overrides?productMasterId=${productId}&limit=5`, 200);
    await call('GET', '/api/forecast/overrides?limit=0', 400);
    await call('GET', '/api/forecast/overrides?scenarioId=nope', 404);
    await call('DELETE', `/api/forecast/overrides/${override.id}`, 200);
    await call('DELETE', `/api/forecast/overrides/${override.id}`, 404);
    const published = await call('PUT', '/api/forecast/overrides', 200, { body: { ...point, scenarioId: base } });
    await call('POST', `/api/forecast/scenarios/${base}/publish`, 200);
    await call('PUT', '/api/forecast/overrides', 409, { body: { ...point, scenarioId: base } });
    await call('POST', `/api/forecast/scenarios/${base}/generate`, 409);
    await call('DELETE', `/api/forecast/overrides/${published.id}`, 409);
  });

  it('imports and their job status', async () => {
    const jobs = [
      await call('POST', '/api/import/catalog', 202, { body: [{ externalId: 'IMP-1', name: 'Imported' }] }),
      await call('POST', '/api/import/inventory', 202, { body: { rows: [{ sku: 'DOC-1', locationCode: 'WH1', onHand: 60 }] } }),
      await call('POST', '/api/import/suppliers', 202, { body: [{}] }),
      await call('POST', '/api/import/purchase-orders', 202, { body: [{}] }),
      await call('POST', '/api/import/orders', 202, { body: [{}] }),
      await call('POST', '/api/import/demand-history', 202, { body: [{}] }),
    ];
    await call('POST', '/api/import/catalog', 400, { body: 'not rows' });
    for (const job of jobs) await call('GET', job.statusUrl, 200);
    await call('GET', '/api/import/status/nope', 404);
    await call('POST', '/api/import/inventory?dryRun=true', 200, { body: [{ sku: 'DOC-1', locationCode: 'WH1', onHand: 60 }, { sku: 'NOPE', locationCode: 'WH1' }] });
    await call('POST', '/api/import/catalog?dryRun=maybe', 400, { body: [{ externalId: 'X' }] });
    const page = await call('GET', '/api/import/jobs?limit=2', 200);
    await call('GET', `/api/import/jobs?limit=2&cursor=${encodeURIComponent(page.nextCursor)}`, 200);
    await call('GET', '/api/import/jobs?status=DONE', 400);
  });

  it('transfer recommendations and transfer costs', async () => {
    const RECS = '/api/transfers/recommendations';
    const product = (await server.call('POST', '/api/products', { token: a.key, body: { sku: 'DOC-T', name: 'Rebalanced' } })).body.id;
    const stores = [
      await createLocationFor(server.operator, { organizationId: a.org.id, code: 'DOC-S1', name: 'Documented store 1' }),
      await createLocationFor(server.operator, { organizationId: a.org.id, code: 'DOC-S2', name: 'Documented store 2' }),
    ];
    for (const [locationId, max] of [[a.warehouse.id, 10], [stores[0]!.id, 20], [stores[1]!.id, 20]] as const) {
      await server.call('POST', '/api/inventory-levels', { token: a.key, body: { productMasterId: product, locationId, minQuantity: 2, reorderQuantity: 5, maxQuantity: max } });
    }
    await addStock(server.app, a.org.id, { productMasterId: product, locationId: a.warehouse.id }, { ON_HAND: 60 });
    await call('PUT', '/api/transfers/costs', 200, { body: { sourceLocationId: a.warehouse.id, destLocationId: stores[0]!.id, costPerUnit: 0.5 } });
    await call('PUT', '/api/transfers/costs', 400, { body: { sourceLocationId: a.warehouse.id, destLocationId: a.warehouse.id, costPerUnit: 1 } });
    await call('GET', '/api/transfers/costs', 200);
    await call('GET', '/api/transfers/costs?sourceLocationId=nope', 404);
    const [first, second] = (await call('POST', RECS, 200, { body: { productMasterId: product, unitMargin: 3 } })).recommendations;
    await call('POST', RECS, 400, { body: { unitMargin: 0 } });
    await call('GET', `${RECS}?status=pending&limit=5`, 200);
    await call('GET', `${RECS}?limit=101`, 400);
    await call('GET', `${RECS}?productMasterId=nope`, 404);
    await call('GET', `${RECS}/pending`, 200);
    await call('GET', `${RECS}/${first.id}`, 200);
    await call('GET', `${RECS}/nope`, 404);
    await call('POST', `${RECS}/${first.id}/execute`, 409);
    await call('POST', `${RECS}/${first.id}/approve`, 200, { body: { comment: 'ok' } });
    await call('POST', `${RECS}/${first.id}/reject`, 409, { body: {} });
    await call('POST', `${RECS}/${first.id}/execute`, 200);
    await call('POST', `${RECS}/nope/approve`, 404, { body: {} });
    await call('POST', `${RECS}/${second.id}/reject`, 200, { body: { comment: 'not now' } });
    await call('POST', `${RECS}/${second.id}/reject`, 400, { body: { comment: 7 } });
  });

  it('reached every route', () => {
    const all = allRoutes.map((route) => `${route.method} ${route.path}`);
    expect(all.filter((route) => !checked.has(route))).toEqual([]);
  });
});
