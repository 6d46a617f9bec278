import { operatorContext } from '../../../src/context.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChannelFor } from '../../../src/services/admin/admin.js';
import { graphqlData, graphqlRefusal } from '../../support/api.js';
import { createTenant, type Tenant } from '../../support/fixtures.js';
import { REFUSAL } from '../../support/graphql.js';
import type { TestServer } from '../../support/server.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';
import { FORECASTING } from '../../support/forecasting.js';

const SCENARIOS = '/api/forecast/scenarios';
const HISTORY = '/api/forecast/change-history';

let server: TestServer;
let a: Tenant;
let b: Tenant;
let plain: Tenant;
let categoryA: string;
let categoryB: string;
let channelA: string;
let channelB: string;
let eventA: string;
let eventB: string;

const create = async (tenant: Tenant, body: Record<string, unknown>, token = tenant.key) => {
  const res = await server.call('POST', SCENARIOS, { token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
};
const draft = (tenant: Tenant, extra: Record<string, unknown> = {}) => create(tenant, { name: 'Draft', type: 'CUSTOM', ...extra });
const signIn = async (tenant: Tenant, role: 'VIEWER' | 'PLANNER' | 'MANAGER') => {
  const user = await tenant.userWith(role);
  return (await server.call('POST', '/api/auth/sign-in', { body: { email: user.email, password: user.password } })).body.token as string;
};

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants({}, { capabilities: [FORECASTING] }));
  plain = await createTenant(server.app.prisma, { capabilities: [] });
  const prisma = server.app.prisma;
  categoryA = (await prisma.category.create({ data: { organizationId: a.org.id, name: 'Rain gear' } })).id;
  categoryB = (await prisma.category.create({ data: { organizationId: b.org.id, name: 'B gear' } })).id;
  channelA = (await createChannelFor(operatorContext(prisma, 'test-setup'), { organizationId: a.org.id, name: 'Online' })).id;
  channelB = (await createChannelFor(operatorContext(prisma, 'test-setup'), { organizationId: b.org.id, name: 'Online' })).id;
  const event = { name: 'Sale', type: 'PROMOTION', startsAt: '2030-03-01T00:00:00Z', endsAt: '2030-03-08T00:00:00Z' };
  eventA = (await server.call('POST', '/api/forecast/events', { token: a.key, body: event })).body.id;
  eventB = (await server.call('POST', '/api/forecast/events', { token: b.key, body: event })).body.id;
});
afterAll(() => server?.close());

describe('REST /api/forecast/scenarios', () => {
  it('creates a DRAFT and answers both shapes: {scenario} and the fields at the top level', async () => {
    const assumptions = {
      narrative: 'Wet spring',
      globalLiftPct: 0.1,
      categoryAdjustments: [{ categoryId: categoryA, liftPct: 0.3 }],
      channelAdjustments: [{ channelId: channelA, liftPct: -0.2 }],
      includedEventIds: [eventA],
    };
    const created = await create(a, { name: 'Spring', type: 'PROMOTIONAL', description: 'umbrellas', assumptions });
    const { scenario, ...top } = created;
    expect(top).toEqual(scenario);
    expect(scenario).toMatchObject({
      id: expect.any(String),
      name: 'Spring',
      description: 'umbrellas',
      type: 'PROMOTIONAL',
      status: 'DRAFT',
      assumptions,
      createdBy: { type: 'API_KEY', id: expect.any(String) },
      publishedBy: null,
      publishedAt: null,
      archivedAt: null,
      createdAt: expect.any(String),
    });

    const read = await server.call('GET', `${SCENARIOS}/${scenario.id}`, { token: a.key });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created);

    const list = await server.call('GET', SCENARIOS, { token: a.key });
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual(list.body.scenarios);
    expect(list.body.scenarios.map((s: { id: string }) => s.id)).toContain(scenario.id);
  });

  it('fills the assumptions that were not given with null, and keeps none as null', async () => {
    const some = await draft(a, { assumptions: { globalLiftPct: -1 } });
    expect(some.assumptions).toEqual({ narrative: null, globalLiftPct: -1, categoryAdjustments: null, channelAdjustments: null, includedEventIds: null });
    const none = await draft(a);
    expect(none).toMatchObject({ assumptions: null, description: null });
    const noEvents = await draft(a, { assumptions: { includedEventIds: [] } });
    expect(noEvents.assumptions.includedEventIds).toEqual([]);
  });

  it('PATCH and PUT (listed as one update) both change only the given fields', async () => {
    const made = await draft(a, { description: 'first', assumptions: { narrative: 'n', globalLiftPct: 0.5 } });
    const patched = await server.call('PATCH', `${SCENARIOS}/${made.id}`, { token: a.key, body: { name: 'Patched' } });
    expect(patched.status).toBe(200);
    expect(patched.body.scenario).toMatchObject({ name: 'Patched', type: 'CUSTOM', description: 'first', assumptions: { narrative: 'n', globalLiftPct: 0.5 } });
    expect(patched.body.name).toBe('Patched');

    const replacedAssumptions = await server.call('PATCH', `${SCENARIOS}/${made.id}`, { token: a.key, body: { assumptions: { channelAdjustments: [{ channelId: channelA, liftPct: 1 }] } } });
    expect(replacedAssumptions.body.assumptions).toEqual({ narrative: null, globalLiftPct: null, categoryAdjustments: null, channelAdjustments: [{ channelId: channelA, liftPct: 1 }], includedEventIds: null });
    const cleared = await server.call('PATCH', `${SCENARIOS}/${made.id}`, { token: a.key, body: { description: null, assumptions: null } });
    expect(cleared.body).toMatchObject({ description: null, assumptions: null, name: 'Patched' });

    const put = await server.call('PUT', `${SCENARIOS}/${made.id}`, { token: a.key, body: { name: 'Put', type: 'OPTIMISTIC', description: 'again', assumptions: { globalLiftPct: 2 } } });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ name: 'Put', type: 'OPTIMISTIC', description: 'again', status: 'DRAFT' });
    const putBare = await server.call('PUT', `${SCENARIOS}/${made.id}`, { token: a.key, body: { name: 'Bare', type: 'BASELINE' } });
    expect(putBare.body).toMatchObject({ name: 'Bare', type: 'BASELINE', description: 'again', assumptions: { globalLiftPct: 2 } });
    // A legacy client's PUT of one field (the issue's `{"name": "Base 2"}`) is a partial update too.
    const putName = await server.call('PUT', `${SCENARIOS}/${made.id}`, { token: a.key, body: { name: 'Base 2' } });
    expect(putName.status).toBe(200);
    expect(putName.body).toMatchObject({ name: 'Base 2', type: 'BASELINE', description: 'again' });
    const putCleared = await server.call('PUT', `${SCENARIOS}/${made.id}`, { token: a.key, body: { description: null } });
    expect(putCleared.body).toMatchObject({ name: 'Base 2', description: null });
    const putBad = await server.call('PUT', `${SCENARIOS}/${made.id}`, { token: a.key, body: { type: 'NOPE' } });
    expect(putBad.status).toBe(400);
    expect(Object.keys(putBad.body.details)).toEqual(['type']);
  });

  it('filters the list by status and type, and leaves archived ones out unless asked', async () => {
    const t = await createTenant(server.app.prisma, { capabilities: [FORECASTING] });
    const d = await draft(t, { type: 'BASELINE' });
    const p = await draft(t, { type: 'OPTIMISTIC' });
    const x = await draft(t, { type: 'BASELINE' });
    await server.call('POST', `${SCENARIOS}/${p.id}/publish`, { token: t.key });
    await server.call('DELETE', `${SCENARIOS}/${x.id}`, { token: t.key });
    const ids = async (query: string) => (await server.call('GET', `${SCENARIOS}${query}`, { token: t.key })).body.scenarios.map((s: { id: string }) => s.id);
    expect(await ids('')).toEqual([p.id, d.id]);
    expect(await ids('?includeArchived=true')).toEqual([x.id, p.id, d.id]);
    expect(await ids('?status=ARCHIVED')).toEqual([x.id]);
    expect(await ids('?status=PUBLISHED')).toEqual([p.id]);
    expect(await ids('?type=BASELINE')).toEqual([d.id]);
    expect(await ids('?type=BASELINE&includeArchived=1')).toEqual([x.id, d.id]);
    const bad = await server.call('GET', `${SCENARIOS}?status=GONE&type=WILD&includeArchived=maybe`, { token: t.key });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.details).sort()).toEqual(['includeArchived', 'status', 'type']);
  });
});

describe('states', () => {
  it('publishes a DRAFT, then refuses every change of a PUBLISHED one with 409 but archives it', async () => {
    const made = await draft(a, { name: 'To publish' });
    const published = await server.call('POST', `${SCENARIOS}/${made.id}/publish`, { token: a.key });
    expect(published.status).toBe(200);
    expect(published.body.scenario).toMatchObject({ status: 'PUBLISHED', publishedAt: expect.any(String), publishedBy: { type: 'API_KEY', id: made.createdBy.id } });
    expect(published.body.status).toBe('PUBLISHED');

    for (const [method, path, body] of [
      ['POST', `${SCENARIOS}/${made.id}/publish`, undefined],
      ['PATCH', `${SCENARIOS}/${made.id}`, { name: 'changed' }],
      ['PUT', `${SCENARIOS}/${made.id}`, { name: 'changed', type: 'CUSTOM' }],
    ] as const) {
      const res = await server.call(method, path, { token: a.key, body });
      expect(res.status, `${method} ${path}`).toBe(409);
      expect(res.body).toEqual({ error: expect.stringMatching(/PUBLISHED/), code: 'INVALID_STATE' });
    }

    const archived = await server.call('DELETE', `${SCENARIOS}/${made.id}`, { token: a.key });
    expect(archived.status).toBe(200);
    expect(archived.body).toMatchObject({ status: 'ARCHIVED', archivedAt: expect.any(String), publishedAt: published.body.publishedAt, name: 'To publish' });
    expect(archived.body.scenario.status).toBe('ARCHIVED');
  });

  it('refuses every move out of ARCHIVED with 409 and keeps the scenario readable', async () => {
    const made = await draft(a, { name: 'To archive' });
    const archived = await server.call('DELETE', `${SCENARIOS}/${made.id}`, { token: a.key });
    expect(archived.body.status).toBe('ARCHIVED');
    for (const [method, path, body] of [
      ['POST', `${SCENARIOS}/${made.id}/publish`, undefined],
      ['PATCH', `${SCENARIOS}/${made.id}`, { name: 'changed' }],
      ['PUT', `${SCENARIOS}/${made.id}`, { name: 'changed', type: 'CUSTOM' }],
      ['DELETE', `${SCENARIOS}/${made.id}`, undefined],
    ] as const) {
      const res = await server.call(method, path, { token: a.key, body });
      expect(res.status, `${method} ${path}`).toBe(409);
      expect(res.body.code).toBe('INVALID_STATE');
    }
    const read = await server.call('GET', `${SCENARIOS}/${made.id}`, { token: a.key });
    expect(read.body).toMatchObject({ status: 'ARCHIVED', name: 'To archive' });
  });

  it('lets only one of two concurrent publishes through', async () => {
    const made = await draft(a, { name: 'Raced' });
    const answers = await Promise.all([1, 2, 3].map(() => server.call('POST', `${SCENARIOS}/${made.id}/publish`, { token: a.key })));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    expect(await server.app.prisma.forecastChange.count({ where: { scenarioId: made.id, kind: 'PUBLISH' } })).toBe(1);
  });
});

describe('validation', () => {
  const post = (body: unknown) => server.call('POST', SCENARIOS, { token: a.key, body });

  it('answers 400 with details for missing, unknown and out-of-range fields', async () => {
    const missing = await post({});
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { name: ['Required'], type: ['Required'] } });
    const badType = await post({ name: 'x', type: 'WILD', status: 'PUBLISHED' });
    expect(badType.body.details).toEqual({ type: [expect.stringMatching(/^One of BASELINE/)], status: ['Unknown field'] });

    const bounds = await post({
      name: 'x',
      type: 'CUSTOM',
      assumptions: {
        globalLiftPct: 5.01,
        categoryAdjustments: [{ categoryId: categoryA, liftPct: -1 }],
        channelAdjustments: [{ channelId: channelA, liftPct: 6 }],
      },
    });
    expect(bounds.status).toBe(400);
    expect(bounds.body.details).toEqual({
      'assumptions.globalLiftPct': ['Must be at most 5'],
      'assumptions.categoryAdjustments.0.liftPct': ['Must be at least -0.99'],
      'assumptions.channelAdjustments.0.liftPct': ['Must be at most 5'],
    });
    const low = await post({ name: 'x', type: 'CUSTOM', assumptions: { globalLiftPct: -1.5 } });
    expect(low.body.details).toEqual({ 'assumptions.globalLiftPct': ['Must be at least -1'] });
    const edges = await post({ name: 'x', type: 'CUSTOM', assumptions: { globalLiftPct: 5, categoryAdjustments: [{ categoryId: categoryA, liftPct: -0.99 }] } });
    expect(edges.status).toBe(201);

    const twice = await post({ name: 'x', type: 'CUSTOM', assumptions: { channelAdjustments: [{ channelId: channelA, liftPct: 0.1 }, { channelId: channelA, liftPct: 0.2 }], includedEventIds: [eventA, eventA] } });
    expect(twice.body.details).toEqual({
      'assumptions.channelAdjustments.1.channelId': ['Listed more than once'],
      'assumptions.includedEventIds.1': ['Listed more than once'],
    });

    const badShape = await post({ name: 'x', type: 'CUSTOM', assumptions: { categoryAdjustments: [{ liftPct: 0.1 }], includedEventIds: 'all', extra: 1 } });
    expect(badShape.body.details).toEqual({
      'assumptions.categoryAdjustments.0.categoryId': ['Required'],
      'assumptions.includedEventIds': ['Must be a list'],
      'assumptions.extra': ['Unknown field'],
    });
  });

  it('answers 400 naming the index of unknown or foreign categories, channels and events', async () => {
    const res = await post({
      name: 'x',
      type: 'CUSTOM',
      assumptions: {
        categoryAdjustments: [{ categoryId: categoryA, liftPct: 0.1 }, { categoryId: categoryB, liftPct: 0.1 }],
        channelAdjustments: [{ channelId: 'nope', liftPct: 0.1 }, { channelId: channelB, liftPct: 0.1 }],
        includedEventIds: [eventA, eventB],
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual({
      'assumptions.categoryAdjustments.1.categoryId': ['Category not found'],
      'assumptions.channelAdjustments.0.channelId': ['Channel not found'],
      'assumptions.channelAdjustments.1.channelId': ['Channel not found'],
      'assumptions.includedEventIds.1': ['Event not found'],
    });
    const existing = await draft(a, { assumptions: { includedEventIds: [eventA] } });
    const patch = await server.call('PATCH', `${SCENARIOS}/${existing.id}`, { token: a.key, body: { assumptions: { includedEventIds: [eventB] } } });
    expect(patch.status).toBe(400);
    expect(patch.body.details).toEqual({ 'assumptions.includedEventIds.0': ['Event not found'] });
    expect((await server.call('GET', `${SCENARIOS}/${existing.id}`, { token: a.key })).body.assumptions.includedEventIds).toEqual([eventA]);
  });
});

describe('tenant isolation', () => {
  it("answers 404 for another organization's scenario on every path and leaves it as it was", async () => {
    const mine = await draft(a, { name: 'A secret' });
    const notFound = { error: 'Scenario not found', code: 'NOT_FOUND' };
    for (const [method, path, body] of [
      ['GET', `${SCENARIOS}/${mine.id}`],
      ['PUT', `${SCENARIOS}/${mine.id}`, { name: 'stolen', type: 'CUSTOM' }],
      ['PATCH', `${SCENARIOS}/${mine.id}`, { name: 'stolen' }],
      ['DELETE', `${SCENARIOS}/${mine.id}`],
      ['POST', `${SCENARIOS}/${mine.id}/publish`],
      ['GET', `${HISTORY}?scenarioId=${mine.id}`],
    ] as const) {
      const res = await server.call(method, path, { token: b.key, body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body).toEqual(notFound);
    }
    const listB = await server.call('GET', `${SCENARIOS}?includeArchived=true`, { token: b.key });
    expect(listB.body.scenarios.map((s: { id: string }) => s.id)).not.toContain(mine.id);
    const gql = await server.graphql(`query ($id: ID!) { forecastScenario(id: $id) { id } }`, { id: mine.id }, b.key);
    expect(gql.body).toEqual({ data: { forecastScenario: null } });
    const gqlPublish = await graphqlRefusal(server, b.key, `mutation ($id: ID!) { publishForecastScenario(id: $id) { ... on ForecastScenario { id } ${REFUSAL} } }`, { id: mine.id });
    expect(gqlPublish).toMatchObject({ type: 'NotFoundError', code: 'NOT_FOUND' });
    expect((await server.call('GET', `${SCENARIOS}/${mine.id}`, { token: a.key })).body).toEqual(mine);
    const historyB = await server.call('GET', HISTORY, { token: b.key });
    expect(historyB.body.changes.every((c: { scenarioId: string }) => c.scenarioId !== mine.id)).toBe(true);
  });
});

describe('access', () => {
  it('answers 403 FEATURE_NOT_ENABLED on every path without the plan capability, before the permission', async () => {
    const featureBody = { error: expect.any(String), code: 'FEATURE_NOT_ENABLED', feature: FORECASTING, planCapability: FORECASTING, entitlement: FORECASTING };
    for (const [method, path, body] of [
      ['GET', SCENARIOS],
      ['POST', SCENARIOS, { name: 'x', type: 'CUSTOM' }],
      ['GET', `${SCENARIOS}/x`],
      ['PUT', `${SCENARIOS}/x`, { name: 'x', type: 'CUSTOM' }],
      ['PATCH', `${SCENARIOS}/x`, { name: 'x' }],
      ['DELETE', `${SCENARIOS}/x`],
      ['POST', `${SCENARIOS}/x/publish`],
      ['GET', HISTORY],
    ] as const) {
      const res = await server.call(method, path, { token: plain.key, body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body).toEqual(featureBody);
    }
    const noScope = await server.call('GET', SCENARIOS, { token: await plain.keyWith(['inventory:read']) });
    expect(noScope.body.code).toBe('FEATURE_NOT_ENABLED');
    const gql = await server.graphql(`{ forecastScenarios { totalCount } forecastChanges { totalCount } }`, {}, plain.key);
    expect(gql.body.errors[0].extensions.code).toBe('FEATURE_NOT_ENABLED');
    const mutation = await server.graphql(`mutation { createForecastScenario(input: { name: "x", type: CUSTOM }) { ... on ForecastScenario { id } } }`, {}, plain.key);
    expect(mutation.body.errors[0].extensions.code).toBe('FEATURE_NOT_ENABLED');
    expect(await server.app.prisma.forecastScenario.count({ where: { organizationId: plain.org.id } })).toBe(0);
  });

  it('lets forecast:read keys and VIEWERs read but not write; forecast:write keys and PLANNERs write', async () => {
    const made = await draft(a, { name: 'Access' });
    const readKey = await a.keyWith(['forecast:read']);
    const viewer = await signIn(a, 'VIEWER');
    for (const token of [readKey, viewer]) {
      expect((await server.call('GET', SCENARIOS, { token })).status).toBe(200);
      expect((await server.call('GET', `${SCENARIOS}/${made.id}`, { token })).status).toBe(200);
      expect((await server.call('GET', HISTORY, { token })).status).toBe(200);
      const code = token === readKey ? 'INSUFFICIENT_SCOPE' : 'FORBIDDEN';
      for (const [method, path, body] of [
        ['POST', SCENARIOS, { name: 'x', type: 'CUSTOM' }],
        ['PATCH', `${SCENARIOS}/${made.id}`, { name: 'x' }],
        ['PUT', `${SCENARIOS}/${made.id}`, { name: 'x', type: 'CUSTOM' }],
        ['POST', `${SCENARIOS}/${made.id}/publish`],
        ['DELETE', `${SCENARIOS}/${made.id}`],
      ] as const) {
        const res = await server.call(method, path, { token, body });
        expect(res.status, `${method} ${path}`).toBe(403);
        expect(res.body.code).toBe(code);
      }
    }
    const inventoryKey = await a.keyWith(['inventory:read']);
    expect((await server.call('GET', SCENARIOS, { token: inventoryKey })).body.code).toBe('INSUFFICIENT_SCOPE');

    const planner = await signIn(a, 'PLANNER');
    const byPlanner = await create(a, { name: 'Planned', type: 'CONSERVATIVE' }, planner);
    expect(byPlanner.createdBy.type).toBe('USER');
    const writeKey = await a.keyWith(['forecast:write']);
    expect((await server.call('POST', `${SCENARIOS}/${byPlanner.id}/publish`, { token: writeKey })).status).toBe(200);
    expect((await server.call('GET', SCENARIOS)).status).toBe(401);
    expect((await server.call('GET', `${SCENARIOS}/${made.id}`, { token: a.key })).body.name).toBe('Access');
  });
});

describe('change history', () => {
  it('records who published and archived which scenario, and filters and pages the rows', async () => {
    const t = await createTenant(server.app.prisma, { capabilities: [FORECASTING] });
    const planner = await signIn(t, 'PLANNER');
    const one = await draft(t, { name: 'One' });
    const two = await draft(t, { name: 'Two' });
    const before = new Date().toISOString();
    await server.call('POST', `${SCENARIOS}/${one.id}/publish`, { token: planner });
    await server.call('DELETE', `${SCENARIOS}/${one.id}`, { token: t.key });
    await server.call('DELETE', `${SCENARIOS}/${two.id}`, { token: planner });
    // Refused moves write nothing.
    expect((await server.call('DELETE', `${SCENARIOS}/${two.id}`, { token: planner })).status).toBe(409);

    const all = await server.call('GET', HISTORY, { token: t.key });
    expect(all.status).toBe(200);
    expect(all.body.data).toEqual(all.body.changes);
    expect(all.body.pagination).toEqual({ total: 3, limit: 50, offset: 0, hasMore: false });
    expect(all.body.changes.map((c: { kind: string; scenarioId: string }) => [c.kind, c.scenarioId])).toEqual([
      ['ARCHIVE', two.id],
      ['ARCHIVE', one.id],
      ['PUBLISH', one.id],
    ]);
    const [archiveTwo, archiveOne, publishOne] = all.body.changes;
    expect(publishOne).toEqual({
      id: expect.any(String),
      kind: 'PUBLISH',
      scenarioId: one.id,
      productMasterId: null,
      locationId: null,
      channel: null,
      periodStart: null,
      totalBefore: null,
      totalAfter: null,
      actor: { type: 'USER', id: expect.any(String) },
      note: null,
      createdAt: expect.any(String),
    });
    expect(archiveOne).toMatchObject({ actor: { type: 'API_KEY' }, note: 'Archived from PUBLISHED' });
    expect(archiveTwo).toMatchObject({ actor: publishOne.actor, note: 'Archived from DRAFT' });
    expect(publishOne.createdAt >= before).toBe(true);

    const kinds = async (query: string) => (await server.call('GET', `${HISTORY}?${query}`, { token: t.key })).body.changes.map((c: { kind: string }) => c.kind);
    expect(await kinds(`scenarioId=${one.id}`)).toEqual(['ARCHIVE', 'PUBLISH']);
    expect(await kinds('kind=PUBLISH')).toEqual(['PUBLISH']);
    expect(await kinds(`kind=ARCHIVE&scenarioId=${two.id}`)).toEqual(['ARCHIVE']);
    expect(await kinds('from=2099-01-01T00:00:00Z')).toEqual([]);
    expect(await kinds(`to=${before}`)).toEqual([]);
    expect(await kinds(`productMasterId=&locationId=${t.warehouse.id}`)).toEqual([]);

    const page = await server.call('GET', `${HISTORY}?limit=2&offset=1`, { token: t.key });
    expect(page.body.changes.map((c: { id: string }) => c.id)).toEqual([archiveOne.id, publishOne.id]);
    expect(page.body.pagination).toEqual({ total: 3, limit: 2, offset: 1, hasMore: false });
    expect((await server.call('GET', `${HISTORY}?limit=1`, { token: t.key })).body.pagination).toEqual({ total: 3, limit: 1, offset: 0, hasMore: true });

    const bad = await server.call('GET', `${HISTORY}?limit=0&offset=-1&kind=EDIT&from=yesterday`, { token: t.key });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.details).sort()).toEqual(['from', 'kind', 'limit', 'offset']);
    const backwards = await server.call('GET', `${HISTORY}?from=2030-01-02T00:00:00Z&to=2030-01-01T00:00:00Z`, { token: t.key });
    expect(backwards.body.details).toEqual({ to: ['Must not be before from'] });
    for (const query of ['scenarioId=nope', `productMasterId=nope`, `locationId=${a.warehouse.id}`]) {
      const res = await server.call('GET', `${HISTORY}?${query}`, { token: t.key });
      expect(res.status, query).toBe(404);
    }
  });
});

describe('GraphQL', () => {
  const FIELDS = 'id name status type assumptions { globalLiftPct categoryAdjustments { categoryId liftPct } includedEventIds } createdBy { type }';

  it('creates, lists, updates, replaces, publishes and archives, with typed refusals', async () => {
    const created = await graphqlData(
      server,
      a.key,
      `mutation ($input: ForecastScenarioInput!) { createForecastScenario(input: $input) { ... on ForecastScenario { ${FIELDS} } ${REFUSAL} } }`,
      { input: { name: 'GQL', type: 'CHANNEL_LAUNCH', assumptions: { globalLiftPct: 0.2, categoryAdjustments: [{ categoryId: categoryA, liftPct: 0.5 }] } } },
    );
    const made = created.createForecastScenario;
    expect(made).toMatchObject({ name: 'GQL', status: 'DRAFT', type: 'CHANNEL_LAUNCH', assumptions: { globalLiftPct: 0.2, categoryAdjustments: [{ categoryId: categoryA, liftPct: 0.5 }], includedEventIds: null }, createdBy: { type: 'API_KEY' } });

    const listed = await graphqlData(server, a.key, `{ forecastScenarios(type: CHANNEL_LAUNCH) { edges { node { id } } } }`);
    expect(listed.forecastScenarios.edges.map((e: any) => e.node)).toEqual([{ id: made.id }]);

    const updated = await graphqlData(server, a.key, `mutation ($id: ID!) { updateForecastScenario(id: $id, input: { name: "GQL 2" }) { ... on ForecastScenario { name assumptions { globalLiftPct } } } }`, { id: made.id });
    expect(updated.updateForecastScenario).toEqual({ name: 'GQL 2', assumptions: { globalLiftPct: 0.2 } });
    const replaced = await graphqlData(server, a.key, `mutation ($id: ID!) { replaceForecastScenario(id: $id, input: { name: "GQL 3", type: CUSTOM }) { ... on ForecastScenario { name type assumptions { narrative } } } }`, { id: made.id });
    expect(replaced.replaceForecastScenario).toEqual({ name: 'GQL 3', type: 'CUSTOM', assumptions: null });

    const bounds = await graphqlRefusal(
      server,
      a.key,
      `mutation ($id: ID!) { updateForecastScenario(id: $id, input: { assumptions: { globalLiftPct: 7, channelAdjustments: [{ channelId: "${channelB}", liftPct: 0.1 }] } }) { ... on ForecastScenario { id } ${REFUSAL} } }`,
      { id: made.id },
    );
    expect(bounds).toMatchObject({ type: 'ValidationError', code: 'VALIDATION_ERROR', details: { 'assumptions.globalLiftPct': ['Must be at most 5'] } });
    const foreign = await graphqlRefusal(
      server,
      a.key,
      `mutation ($id: ID!) { updateForecastScenario(id: $id, input: { assumptions: { channelAdjustments: [{ channelId: "${channelB}", liftPct: 0.1 }] } }) { ... on ForecastScenario { id } ${REFUSAL} } }`,
      { id: made.id },
    );
    expect(foreign.details).toEqual({ 'assumptions.channelAdjustments.0.channelId': ['Channel not found'] });

    const published = await graphqlData(server, a.key, `mutation ($id: ID!) { publishForecastScenario(id: $id) { ... on ForecastScenario { status publishedBy { type } publishedAt } } }`, { id: made.id });
    expect(published.publishForecastScenario).toMatchObject({ status: 'PUBLISHED', publishedBy: { type: 'API_KEY' } });
    const again = await graphqlRefusal(server, a.key, `mutation ($id: ID!) { publishForecastScenario(id: $id) { ... on ForecastScenario { id } ${REFUSAL} } }`, { id: made.id });
    expect(again).toMatchObject({ type: 'ConflictError', code: 'INVALID_STATE' });
    const locked = await graphqlRefusal(server, a.key, `mutation ($id: ID!) { updateForecastScenario(id: $id, input: { name: "no" }) { ... on ForecastScenario { id } ${REFUSAL} } }`, { id: made.id });
    expect(locked).toMatchObject({ type: 'ConflictError', code: 'INVALID_STATE' });

    const archived = await graphqlData(server, a.key, `mutation ($id: ID!) { archiveForecastScenario(id: $id) { ... on ForecastScenario { status archivedAt } } }`, { id: made.id });
    expect(archived.archiveForecastScenario.status).toBe('ARCHIVED');

    const history = await graphqlData(
      server,
      a.key,
      `query ($id: ID!) { forecastChanges(scenarioId: $id) { totalCount pageInfo { hasNextPage } edges { node { kind scenarioId actor { type } periodStart totalAfter } } } }`,
      { id: made.id },
    );
    expect({ ...history.forecastChanges, edges: history.forecastChanges.edges.map((e: any) => e.node) }).toEqual({
      totalCount: 2,
      pageInfo: { hasNextPage: false },
      edges: [
        { kind: 'ARCHIVE', scenarioId: made.id, actor: { type: 'API_KEY' }, periodStart: null, totalAfter: null },
        { kind: 'PUBLISH', scenarioId: made.id, actor: { type: 'API_KEY' }, periodStart: null, totalAfter: null },
      ],
    });
  });

  it('reads null arguments as absent', async () => {
    const data = await graphqlData(
      server,
      a.key,
      `{ forecastScenarios(status: null, type: null, includeArchived: null, first: null) { totalCount } forecastChangesPage(scenarioId: null, kind: null, from: null, to: null, limit: null, offset: null) { limit offset } }`,
    );
    expect(data.forecastScenarios.totalCount).toBeGreaterThan(0);
    expect(data.forecastChangesPage).toEqual({ limit: 50, offset: 0 });
  });

  it('needs forecast.write for mutations over GraphQL too', async () => {
    const viewer = await signIn(a, 'VIEWER');
    const res = await server.graphql(`mutation { createForecastScenario(input: { name: "x", type: CUSTOM }) { ... on ForecastScenario { id } } }`, {}, viewer);
    expect(res.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const read = await server.graphql(`{ forecastScenarios { edges { node { id } } } }`, {}, viewer);
    expect(read.body.errors).toBeUndefined();
  });
});
