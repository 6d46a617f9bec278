import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocationFor } from '../../../src/services/admin/admin.js';
import { createTenant, type Tenant } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';
import { graphqlRefusal } from '../../support/api.js';
import { REFUSAL } from '../../support/graphql.js';
import { FORECASTING } from '../../support/forecasting.js';

const DAY = 24 * 60 * 60 * 1000;

let server: TestServer;
let a: Tenant;
let b: Tenant;
let plain: Tenant;
let productA: { id: string; name: string; sku: string };
let productB: { id: string };

const daysFromNow = (days: number) => new Date(Date.now() + days * DAY).toISOString();
const event = (extra: Record<string, unknown> = {}) => ({
  name: 'Spring sale',
  type: 'PROMOTION',
  startsAt: daysFromNow(1),
  endsAt: daysFromNow(8),
  ...extra,
});
const create = async (tenant: typeof a, body: Record<string, unknown>) => {
  const res = await server.call('POST', '/api/forecast/events', { token: tenant.key, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
};
const ids = (res: { body: { events: { id: string }[] } }) => res.body.events.map((e) => e.id);

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants({}, { capabilities: [FORECASTING] }));
  plain = await createTenant(server.app.prisma, { capabilities: [] });
  productA = (await server.call('POST', '/api/products', { token: a.key, body: { sku: 'EV-A', name: 'Umbrella' } })).body;
  productB = (await server.call('POST', '/api/products', { token: b.key, body: { sku: 'EV-B', name: 'B product' } })).body;
});
afterAll(() => server?.close());

describe('REST /api/forecast/events', () => {
  it('creates, reads, lists, updates with PUT and PATCH, and deletes an event', async () => {
    const body = event({
      name: 'Rainy week',
      type: 'WEATHER',
      value: { liftPct: 0.25, stackingMode: 'ADDITIVE', description: 'umbrellas sell' },
      productMasterId: productA.id,
      locationId: a.warehouse.id,
    });
    const created = await create(a, body);
    expect(Object.keys(created).sort()).toEqual(
      ['bookedQuantity', 'createdAt', 'endsAt', 'id', 'isGlobal', 'isOrgWide', 'location', 'name', 'productMaster', 'startsAt', 'type', 'value'].sort(),
    );
    expect(created).toMatchObject({
      name: 'Rainy week',
      type: 'WEATHER',
      startsAt: body.startsAt,
      endsAt: body.endsAt,
      value: { liftPct: 0.25, stackingMode: 'ADDITIVE', description: 'umbrellas sell' },
      isGlobal: false,
      isOrgWide: false,
      productMaster: { id: productA.id, name: 'Umbrella', sku: 'EV-A' },
      location: { id: a.warehouse.id, name: 'Main warehouse', code: 'WH1' },
    });

    const read = await server.call('GET', `/api/forecast/events/${created.id}`, { token: a.key });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created);

    const list = await server.call('GET', '/api/forecast/events', { token: a.key });
    expect(list.status).toBe(200);
    expect(ids(list)).toContain(created.id);
    expect(list.body.data).toEqual(list.body.events);

    const put = await server.call('PUT', `/api/forecast/events/${created.id}`, { token: a.key, body: { name: 'Very rainy week', productMasterId: null } });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ id: created.id, name: 'Very rainy week', type: 'WEATHER', productMaster: null, isGlobal: true, isOrgWide: false });
    expect(put.body.value).toEqual(created.value);

    // A partial update of the nested value keeps the value's fields it does not name.
    const lift = await server.call('PATCH', `/api/forecast/events/${created.id}`, { token: a.key, body: { value: { liftPct: 0.7 } } });
    expect(lift.status).toBe(200);
    expect(lift.body.value).toEqual({ liftPct: 0.7, stackingMode: 'ADDITIVE', description: 'umbrellas sell' });
    const described = await server.call('PUT', `/api/forecast/events/${created.id}`, { token: a.key, body: { value: { description: null } } });
    expect(described.body.value).toEqual({ liftPct: 0.7, stackingMode: 'ADDITIVE', description: null });

    const patch = await server.call('PATCH', `/api/forecast/events/${created.id}`, { token: a.key, body: { value: null, type: 'HOLIDAY', locationId: null } });
    expect(patch.status).toBe(200);
    expect(patch.body).toMatchObject({ name: 'Very rainy week', type: 'HOLIDAY', value: null, location: null, isGlobal: true, isOrgWide: true });

    const removed = await server.call('DELETE', `/api/forecast/events/${created.id}`, { token: a.key });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ success: true, message: expect.any(String) });
    expect((await server.call('GET', `/api/forecast/events/${created.id}`, { token: a.key })).status).toBe(404);
    expect((await server.call('DELETE', `/api/forecast/events/${created.id}`, { token: a.key })).status).toBe(404);
  });

  it('defaults a bare event to global, org-wide and no value, and a lift to MULTIPLICATIVE', async () => {
    const bare = await create(a, event({ name: 'Bare' }));
    expect(bare).toMatchObject({ value: null, isGlobal: true, isOrgWide: true, productMaster: null, location: null });
    const lift = await create(a, event({ name: 'Lift only', value: { liftPct: -0.5 } }));
    expect(lift.value).toEqual({ liftPct: -0.5, stackingMode: 'MULTIPLICATIVE', description: null });
    const consistent = await create(a, event({ name: 'Flags', productMasterId: productA.id, isGlobal: false, isOrgWide: true }));
    expect(consistent).toMatchObject({ isGlobal: false, isOrgWide: true });
  });

  it('answers 400 with details for invalid input', async () => {
    const post = (body: unknown) => server.call('POST', '/api/forecast/events', { token: a.key, body });
    const badType = await post(event({ type: 'PARTY' }));
    expect(badType.status).toBe(400);
    expect(Object.keys(badType.body.details)).toEqual(['type']);

    const lift = await post(event({ value: { liftPct: 5.5 } }));
    expect(lift.status).toBe(400);
    expect(lift.body.details).toEqual({ 'value.liftPct': ['Must be at most 5'] });
    const low = await post(event({ value: { liftPct: -1 } }));
    expect(low.body.details).toEqual({ 'value.liftPct': ['Must be at least -0.99'] });
    const mode = await post(event({ value: { liftPct: 0.1, stackingMode: 'SOMETIMES' } }));
    expect(mode.status).toBe(400);
    expect(Object.keys(mode.body.details)).toEqual(['value.stackingMode']);

    const backwards = await post(event({ startsAt: daysFromNow(5), endsAt: daysFromNow(4) }));
    expect(backwards.status).toBe(400);
    expect(backwards.body.details).toEqual({ endsAt: ['Must not be before startsAt'] });

    const { name: _omit, ...nameless } = event();
    const missing = await post(nameless);
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ error: expect.any(String), code: 'VALIDATION_ERROR', details: { name: ['Required'] } });
    const blank = await post(event({ name: '  ' }));
    expect(blank.body.details).toEqual({ name: ['Required'] });

    const badDate = await post(event({ startsAt: 'next tuesday' }));
    expect(badDate.status).toBe(400);
    expect(Object.keys(badDate.body.details)).toEqual(['startsAt']);

    const unknownProduct = await post(event({ productMasterId: 'nope', locationId: 'nowhere' }));
    expect(unknownProduct.status).toBe(400);
    expect(unknownProduct.body.details).toEqual({ productMasterId: ['Product not found'], locationId: ['Location not found'] });

    const contradicting = await post(event({ productMasterId: productA.id, isGlobal: true, isOrgWide: false }));
    expect(contradicting.status).toBe(400);
    expect(Object.keys(contradicting.body.details).sort()).toEqual(['isGlobal', 'isOrgWide']);

    const existing = await create(a, event({ name: 'To break' }));
    const patch = await server.call('PATCH', `/api/forecast/events/${existing.id}`, { token: a.key, body: { endsAt: daysFromNow(0) } });
    expect(patch.status).toBe(400);
    expect(patch.body.details).toEqual({ endsAt: ['Must not be before startsAt'] });
    const nullName = await server.call('PATCH', `/api/forecast/events/${existing.id}`, { token: a.key, body: { name: null } });
    expect(nullName.status).toBe(400);
    expect(Object.keys(nullName.body.details)).toEqual(['name']);
    const after = await server.call('GET', `/api/forecast/events/${existing.id}`, { token: a.key });
    expect(after.body).toEqual(existing);

    const window = await server.call('GET', `/api/forecast/events?from=${daysFromNow(10)}&to=${daysFromNow(5)}`, { token: a.key });
    expect(window.status).toBe(400);
    expect(window.body.details).toEqual({ to: ['Must not be before from'] });
    const flag = await server.call('GET', '/api/forecast/events?includeGlobal=maybe', { token: a.key });
    expect(flag.status).toBe(400);
    expect(Object.keys(flag.body.details)).toEqual(['includeGlobal']);
    const typeFilter = await server.call('GET', '/api/forecast/events?type=PARTY', { token: a.key });
    expect(typeFilter.status).toBe(400);
    expect(Object.keys(typeFilter.body.details)).toEqual(['type']);
  });
});

describe('listing window and filters', () => {
  let t: Tenant;
  let product: { id: string };
  let store: { id: string };
  const e: Record<string, { id: string }> = {};

  beforeAll(async () => {
    t = await createTenant(server.app.prisma, { capabilities: [FORECASTING] });
    product = (await server.call('POST', '/api/products', { token: t.key, body: { sku: 'FILTER', name: 'Filtered' } })).body;
    const other = (await server.call('POST', '/api/products', { token: t.key, body: { sku: 'OTHER', name: 'Other' } })).body;
    store = await createLocationFor(server.operator, { organizationId: t.org.id, code: 'ST1', name: 'Store' });
    e.orgWide = await create(t, event({ name: 'org-wide', type: 'HOLIDAY' }));
    e.forProduct = await create(t, event({ name: 'product', productMasterId: product.id }));
    e.forOtherProduct = await create(t, event({ name: 'other product', productMasterId: other.id }));
    e.atStore = await create(t, event({ name: 'store', type: 'WEATHER', locationId: store.id }));
    e.productAtWarehouse = await create(t, event({ name: 'product at warehouse', productMasterId: product.id, locationId: t.warehouse.id }));
    e.far = await create(t, event({ name: 'far ahead', startsAt: daysFromNow(200), endsAt: daysFromNow(201) }));
    e.past = await create(t, event({ name: 'last month', startsAt: daysFromNow(-40), endsAt: daysFromNow(-30) }));
    e.running = await create(t, event({ name: 'running', startsAt: daysFromNow(-3), endsAt: daysFromNow(3), type: 'MACRO' }));
  });

  const list = async (query = '') => {
    const res = await server.call('GET', `/api/forecast/events${query}`, { token: t.key });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return ids(res);
  };

  it('defaults to today through 90 days ahead, including events already running, soonest first', async () => {
    const names = (await server.call('GET', '/api/forecast/events', { token: t.key })).body.events.map((x: { name: string }) => x.name);
    expect(names[0]).toBe('running');
    expect(new Set(await list())).toEqual(
      new Set([e.orgWide, e.forProduct, e.forOtherProduct, e.atStore, e.productAtWarehouse, e.running].map((x) => x!.id)),
    );
  });

  it('uses from and to to reach beyond the default window', async () => {
    expect(await list(`?from=${daysFromNow(150)}&to=${daysFromNow(250)}`)).toEqual([e.far!.id]);
    expect(await list(`?from=${daysFromNow(150)}`)).toEqual([e.far!.id]);
    expect(await list(`?from=${daysFromNow(-45)}&to=${daysFromNow(-35)}`)).toEqual([e.past!.id]);
    expect(await list(`?to=${daysFromNow(0.5)}`)).toEqual([e.running!.id]);
    expect(await list(`?from=${daysFromNow(-29)}&to=${daysFromNow(-10)}`)).toEqual([]);
  });

  it('filters by type', async () => {
    expect(await list('?type=WEATHER')).toEqual([e.atStore!.id]);
    expect(await list('?type=MACRO')).toEqual([e.running!.id]);
  });

  it('filters by product, keeping global events unless includeGlobal=false', async () => {
    expect(new Set(await list(`?productMasterId=${product.id}`))).toEqual(
      new Set([e.orgWide, e.forProduct, e.atStore, e.productAtWarehouse, e.running].map((x) => x!.id)),
    );
    expect(new Set(await list(`?productMasterId=${product.id}&includeGlobal=false`))).toEqual(new Set([e.forProduct!.id, e.productAtWarehouse!.id]));
  });

  it('filters by location, keeping org-wide events unless includeOrgWide=false', async () => {
    expect(new Set(await list(`?locationId=${store.id}`))).toEqual(
      new Set([e.orgWide, e.forProduct, e.forOtherProduct, e.atStore, e.running].map((x) => x!.id)),
    );
    expect(await list(`?locationId=${store.id}&includeOrgWide=false`)).toEqual([e.atStore!.id]);
    expect(await list(`?productMasterId=${product.id}&locationId=${t.warehouse.id}&includeGlobal=false&includeOrgWide=false`)).toEqual([
      e.productAtWarehouse!.id,
    ]);
  });

  it('drops broad events without a product or location filter too', async () => {
    expect(new Set(await list('?includeGlobal=false'))).toEqual(new Set([e.forProduct, e.forOtherProduct, e.productAtWarehouse].map((x) => x!.id)));
    expect(await list('?includeGlobal=false&includeOrgWide=false')).toEqual([e.productAtWarehouse!.id]);
    expect(new Set(await list('?includeOrgWide=0'))).toEqual(new Set([e.atStore, e.productAtWarehouse].map((x) => x!.id)));
  });
});

describe('plan capability and permissions', () => {
  const featureBody = {
    error: expect.any(String),
    code: 'FEATURE_NOT_ENABLED',
    feature: FORECASTING,
    planCapability: FORECASTING,
    entitlement: FORECASTING,
  };

  it('answers 403 FEATURE_NOT_ENABLED on every route when the plan lacks forecasting, even for a * key', async () => {
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/forecast/events'],
      ['POST', '/api/forecast/events', event()],
      ['GET', '/api/forecast/events/any'],
      ['PUT', '/api/forecast/events/any', { name: 'x' }],
      ['PATCH', '/api/forecast/events/any', { name: 'x' }],
      ['DELETE', '/api/forecast/events/any'],
    ];
    for (const [method, path, body] of calls) {
      const res = await server.call(method, path, { token: plain.key, body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body).toEqual(featureBody);
    }
    // The plan is checked before the permission.
    const noForecastScope = await server.call('GET', '/api/forecast/events', { token: await plain.keyWith(['inventory:read']) });
    expect(noForecastScope.status).toBe(403);
    expect(noForecastScope.body).toEqual(featureBody);
    const signIn = await server.call('POST', '/api/auth/sign-in', { body: { email: plain.admin.email, password: plain.admin.password } });
    const asUser = await server.call('GET', '/api/forecast/events', { token: signIn.body.token });
    expect(asUser.status).toBe(403);
    expect(asUser.body.code).toBe('FEATURE_NOT_ENABLED');
    expect(await server.app.prisma.externalEvent.count({ where: { organizationId: plain.org.id } })).toBe(0);
  });

  it('says FEATURE_NOT_ENABLED over GraphQL too', async () => {
    const res = await server.graphql(`{ externalEvents { totalCount } }`, {}, plain.key);
    expect(res.body.errors[0].extensions).toEqual({ code: 'FEATURE_NOT_ENABLED', feature: FORECASTING, planCapability: FORECASTING, entitlement: FORECASTING });
    const mutation = await server.graphql(`mutation { createExternalEvent(input: { name: "x", type: OTHER, startsAt: "2030-01-01T00:00:00Z", endsAt: "2030-01-02T00:00:00Z" }) { ... on ExternalEvent { id } } }`, {}, plain.key);
    expect(mutation.body.errors[0].extensions.code).toBe('FEATURE_NOT_ENABLED');
  });

  it('needs forecast.read to read and forecast.write to write', async () => {
    const inventoryOnly = await a.keyWith(['inventory:read']);
    const denied = await server.call('GET', '/api/forecast/events', { token: inventoryOnly });
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('INSUFFICIENT_SCOPE');

    const readOnly = await a.keyWith(['forecast:read']);
    expect((await server.call('GET', '/api/forecast/events', { token: readOnly })).status).toBe(200);
    const write = await server.call('POST', '/api/forecast/events', { token: readOnly, body: event() });
    expect(write.status).toBe(403);
    expect(write.body.code).toBe('INSUFFICIENT_SCOPE');

    const writer = await a.keyWith(['forecast:write']);
    expect((await server.call('POST', '/api/forecast/events', { token: writer, body: event() })).status).toBe(201);

    const viewer = await a.userWith('VIEWER');
    const signIn = await server.call('POST', '/api/auth/sign-in', { body: { email: viewer.email, password: viewer.password } });
    const viewerWrite = await server.call('POST', '/api/forecast/events', { token: signIn.body.token, body: event() });
    expect(viewerWrite.status).toBe(403);
    expect(viewerWrite.body.code).toBe('FORBIDDEN');

    expect((await server.call('GET', '/api/forecast/events')).status).toBe(401);
  });
});

describe('tenant isolation', () => {
  it("keeps org B away from org A's events", async () => {
    const mine = await create(a, event({ name: 'A secret', productMasterId: productA.id }));
    const path = `/api/forecast/events/${mine.id}`;
    const notFound = { error: 'Event not found', code: 'NOT_FOUND' };
    for (const [method, body] of [['GET'], ['PUT', { name: 'stolen' }], ['PATCH', { name: 'stolen' }], ['DELETE']] as const) {
      const res = await server.call(method, path, { token: b.key, body });
      expect(res.status, method).toBe(404);
      expect(res.body).toEqual(notFound);
    }
    const listB = await server.call('GET', `/api/forecast/events?from=${daysFromNow(-365)}&to=${daysFromNow(365)}`, { token: b.key });
    expect(ids(listB)).not.toContain(mine.id);
    const byProduct = await server.call('GET', `/api/forecast/events?productMasterId=${productA.id}&includeGlobal=false`, { token: b.key });
    expect(byProduct.status).toBe(404);
    expect(byProduct.body).toEqual({ error: 'Product not found', code: 'NOT_FOUND' });
    const gql = await server.graphql(`query ($id: ID!) { externalEvent(id: $id) { id } }`, { id: mine.id }, b.key);
    expect(gql.body).toEqual({ data: { externalEvent: null } });

    const again = await server.call('GET', path, { token: a.key });
    expect(again.body).toEqual(mine);
  });

  it("refuses another organization's product or location as 400", async () => {
    const product = await server.call('POST', '/api/forecast/events', { token: a.key, body: event({ productMasterId: productB.id }) });
    expect(product.status).toBe(400);
    expect(product.body.details).toEqual({ productMasterId: ['Product not found'] });
    const location = await server.call('POST', '/api/forecast/events', { token: a.key, body: event({ locationId: b.warehouse.id }) });
    expect(location.status).toBe(400);
    expect(location.body.details).toEqual({ locationId: ['Location not found'] });
    const existing = await create(a, event({ name: 'Keep my product', productMasterId: productA.id }));
    const patch = await server.call('PATCH', `/api/forecast/events/${existing.id}`, { token: a.key, body: { productMasterId: productB.id } });
    expect(patch.status).toBe(400);
    expect((await server.call('GET', `/api/forecast/events/${existing.id}`, { token: a.key })).body.productMaster.id).toBe(productA.id);
  });
});

describe('GraphQL external events', () => {
  it('creates, lists, updates and deletes', async () => {
    const fields = 'id name type value { liftPct stackingMode } isGlobal isOrgWide productMaster { sku } location { code }';
    const created = await server.graphql(
      `mutation ($input: ExternalEventCreateInput!) { createExternalEvent(input: $input) { ... on ExternalEvent { ${fields} } } }`,
      { input: event({ name: 'GQL event', type: 'BOOKING', value: { liftPct: 1.5 }, productMasterId: productA.id, locationId: a.warehouse.id }) },
      a.key,
    );
    const made = created.body.data.createExternalEvent;
    expect(made).toMatchObject({
      name: 'GQL event',
      type: 'BOOKING',
      value: { liftPct: 1.5, stackingMode: 'MULTIPLICATIVE' },
      productMaster: { sku: 'EV-A' },
      location: { code: 'WH1' },
      isGlobal: false,
      isOrgWide: false,
    });

    const listed = await server.graphql(
      `query ($p: ID) { externalEvents(productMasterId: $p, includeGlobal: false, type: BOOKING) { edges { node { id } } } }`,
      { p: productA.id },
      a.key,
    );
    expect(listed.body.data.externalEvents.edges).toEqual([{ node: { id: made.id } }]);

    const updated = await server.graphql(
      `mutation ($id: ID!) { updateExternalEvent(id: $id, input: { name: "Renamed", locationId: null }) { ... on ExternalEvent { name location { code } isOrgWide productMaster { sku } } } }`,
      { id: made.id },
      a.key,
    );
    expect(updated.body.data.updateExternalEvent).toEqual({ name: 'Renamed', location: null, isOrgWide: true, productMaster: { sku: 'EV-A' } });

    const bad = await graphqlRefusal(
      server,
      a.key,
      `mutation { createExternalEvent(input: { name: "x", type: OTHER, startsAt: "2030-01-02T00:00:00Z", endsAt: "2030-01-01T00:00:00Z", value: { liftPct: 9 } }) { ... on ExternalEvent { id } ${REFUSAL} } }`,
    );
    expect(bad).toMatchObject({ type: 'ValidationError', code: 'VALIDATION_ERROR', details: { 'value.liftPct': ['Must be at most 5'] } });

    const deleted = await server.graphql(`mutation ($id: ID!) { deleteExternalEvent(id: $id) { ... on ExternalEvent { id name } } }`, { id: made.id }, a.key);
    expect(deleted.body.data.deleteExternalEvent).toEqual({ id: made.id, name: 'Renamed' });
    expect(await server.app.prisma.externalEvent.count({ where: { id: made.id } })).toBe(0);
  });
});

describe('query counts', () => {
  it('lists events with their product and location in a fixed number of queries', async () => {
    const t = await createTenant(server.app.prisma, { capabilities: [FORECASTING] });
    const products = [];
    for (let i = 0; i < 10; i++) {
      products.push((await server.call('POST', '/api/products', { token: t.key, body: { sku: `QC-${i}`, name: `Counted ${i}` } })).body);
    }
    const count = async () => {
      server.queries.length = 0;
      const res = await server.call('GET', '/api/forecast/events', { token: t.key });
      expect(res.status).toBe(200);
      expect(res.body.events.every((x: any) => x.productMaster?.sku && x.location?.code === 'WH1')).toBe(true);
      return { queries: server.queries.length, events: res.body.events.length };
    };
    for (const p of products.slice(0, 2)) await create(t, event({ productMasterId: p.id, locationId: t.warehouse.id }));
    const small = await count();
    for (const p of products.slice(2)) await create(t, event({ productMasterId: p.id, locationId: t.warehouse.id }));
    const large = await count();
    expect([small.events, large.events]).toEqual([2, 10]);
    expect(large.queries).toBe(small.queries);
    // the API key lookup, the events, their products, their locations
    expect(large.queries).toBeLessThanOrEqual(4);
  });
});
