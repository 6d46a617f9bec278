import { createClient, type Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { graphqlData, graphqlError, graphqlRefusal } from '../../support/api.js';
import type { Tenant } from '../../support/fixtures.js';
import { REFUSAL } from '../../support/graphql.js';
import type { TestServer } from '../../support/server.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';
import { RECS, roleTokens, stockedProduct } from './recommendation-setup.js';

const FIELDS = 'id status priority quantity sourceLocationId destLocationId productMasterId reason estimatedROI approvedBy approvalComment expiresAt transferId';
const GENERATE = `mutation ($input: GenerateTransferRecommendationsInput) {
  generateTransferRecommendations(input: $input) { ... on TransferRecommendationGeneration { success created updated recommendations { ${FIELDS} } } ${REFUSAL} }
}`;
const APPROVE = `mutation ($id: ID!, $comment: String) { approveTransferRecommendation(id: $id, comment: $comment) { ... on TransferRecommendation { ${FIELDS} } ${REFUSAL} } }`;
const EXECUTE = `mutation ($id: ID!) { executeTransferRecommendation(id: $id) { ... on TransferRecommendation { ${FIELDS} } ${REFUSAL} } }`;
const LIST = `query ($status: TransferRecommendationStatus, $validOnly: Boolean) {
  transferRecommendationsPage(status: $status, validOnly: $validOnly) { total limit offset recommendations { ${FIELDS} } }
}`;
const CHANGES = `subscription { transferRecommendationChanged { ${FIELDS} } }`;

let server: TestServer;
let a: Tenant;
let b: Tenant;
const clients: Client[] = [];

// The sweep runs every 0.2 s here, so that a test can see it write EXPIRED; this instance publishes the events
// that feed the subscription.
beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants({ TRANSFER_EXPIRY_SWEEP_SECONDS: '0.2', EVENT_PUBLISH_POLL_MS: '20' }));
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
  await server?.close();
});

const scenario = (tenant: Tenant) =>
  stockedProduct(server, tenant, [
    { min: 10, reorder: 20, max: 100, stock: 300 },
    { min: 10, reorder: 20, max: 50, stock: 0 },
  ]);

function subscribe(token: string) {
  const client = createClient({ url: `${server.url.replace(/^http/, 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${token}` }, retryAttempts: 0, lazy: true });
  clients.push(client);
  const events: { id: string; status: string; productMasterId: string }[] = [];
  const errors: unknown[] = [];
  client.subscribe({ query: CHANGES }, { next: (r) => (r.errors ? errors.push(r.errors) : events.push(r.data!.transferRecommendationChanged as (typeof events)[number])), error: (e) => errors.push(e), complete: () => {} });
  return { events, errors };
}

describe('GraphQL', () => {
  it('generates, lists, approves and executes; refusals are typed', async () => {
    const { productMasterId } = await scenario(a);
    const generated = (await graphqlData(server, a.key, GENERATE, { input: { productMasterId, unitMargin: 2 } })).generateTransferRecommendations;
    expect(generated).toMatchObject({ success: true, created: 1, updated: 0, recommendations: [{ status: 'PENDING', priority: 'URGENT', quantity: 50 }] });
    const [rec] = generated.recommendations;
    const list = (await graphqlData(server, a.key, LIST, { status: 'PENDING', validOnly: true })).transferRecommendationsPage;
    expect(list).toMatchObject({ total: 1, limit: 50, offset: 0, recommendations: [{ id: rec.id }] });

    const refused = await graphqlRefusal(server, a.key, EXECUTE, { id: rec.id });
    expect(refused).toMatchObject({ type: 'ConflictError', code: 'INVALID_STATE' });
    const approved = (await graphqlData(server, a.key, APPROVE, { id: rec.id, comment: 'yes' })).approveTransferRecommendation;
    expect(approved).toMatchObject({ id: rec.id, status: 'APPROVED', approvedBy: expect.any(String), approvalComment: 'yes' });
    expect(await graphqlRefusal(server, a.key, APPROVE, { id: rec.id })).toMatchObject({ type: 'ConflictError', code: 'INVALID_STATE' });
    const executed = (await graphqlData(server, a.key, EXECUTE, { id: rec.id })).executeTransferRecommendation;
    expect(executed).toMatchObject({ status: 'EXECUTED', transferId: expect.any(String) });

    expect(await graphqlRefusal(server, a.key, GENERATE, { input: { minStockDifferencePct: 2, locationId: 'nope' } })).toMatchObject({
      type: 'ValidationError',
      details: { minStockDifferencePct: [expect.any(String)] },
    });
    expect(await graphqlRefusal(server, a.key, GENERATE, { input: { locationId: b.warehouse.id } })).toMatchObject({ type: 'ValidationError', details: { locationId: ['Location not found'] } });
    expect(await graphqlRefusal(server, b.key, APPROVE, { id: rec.id })).toMatchObject({ type: 'NotFoundError', code: 'NOT_FOUND' });
    expect(await graphqlData(server, b.key, `query ($id: ID!) { transferRecommendation(id: $id) { id } }`, { id: rec.id })).toEqual({ transferRecommendation: null });
  });

  it('keeps permission failures top-level: a VIEWER may read but not generate, a PLANNER not approve', async () => {
    const tokens = await roleTokens(server, a);
    expect((await graphqlData(server, tokens.VIEWER, LIST)).transferRecommendationsPage.total).toBeGreaterThan(0);
    expect(await graphqlError(server, tokens.VIEWER, GENERATE, { input: {} })).toMatchObject({ code: 'FORBIDDEN' });
    expect(await graphqlError(server, tokens.PLANNER, APPROVE, { id: 'any' })).toMatchObject({ code: 'FORBIDDEN' });
    expect(await graphqlError(server, tokens.PLANNER, EXECUTE, { id: 'any' })).toMatchObject({ code: 'FORBIDDEN' });
  });

  it('sets and lists transfer costs', async () => {
    const { locations } = await scenario(a);
    const set = await graphqlData(server, a.key, `mutation ($input: TransferCostInput!) { setTransferCost(input: $input) { ... on TransferCost { sourceLocationId destLocationId costPerUnit } ${REFUSAL} } }`, {
      input: { sourceLocationId: locations[0], destLocationId: locations[1], costPerUnit: 2.5 },
    });
    expect(set.setTransferCost).toEqual({ sourceLocationId: locations[0], destLocationId: locations[1], costPerUnit: 2.5 });
    const list = await graphqlData(server, a.key, `query ($s: ID) { transferCosts(sourceLocationId: $s) { defaultCostPerUnit costs { destLocationId costPerUnit } } }`, { s: locations[0] });
    expect(list.transferCosts).toEqual({ defaultCostPerUnit: 1, costs: [{ destLocationId: locations[1], costPerUnit: 2.5 }] });
  });
});

describe('subscription and the expiry sweep', () => {
  it('sends a recommendation generated again (recommendation.updated, its status kept) as a new version', async () => {
    const before = server.app.events!.streamCount;
    const feed = subscribe(a.key);
    await vi.waitFor(() => expect(server.app.events!.streamCount).toBe(before + 1), { timeout: 15_000, interval: 20 });
    const { productMasterId } = await scenario(a);
    const [rec] = (await server.call('POST', RECS, { token: a.key, body: { productMasterId } })).body.recommendations;
    await vi.waitFor(() => expect(feed.events.filter((e) => e.id === rec.id)).toHaveLength(1), { timeout: 15_000, interval: 50 });
    const again = await server.call('POST', RECS, { token: a.key, body: { productMasterId } });
    expect(again.body).toMatchObject({ created: 0, updated: 1 });
    await vi.waitFor(() => expect(feed.events.filter((e) => e.id === rec.id)).toHaveLength(2), { timeout: 15_000, interval: 50 });
    const events = await server.app.prisma.domainEvent.findMany({ where: { subjectId: rec.id }, orderBy: { id: 'asc' } });
    expect(events.map((e) => e.type)).toEqual(['recommendation.created', 'recommendation.updated']);
    expect(feed.errors).toEqual([]);
  });


  it('follows new and changed recommendations of the organization only, and the sweep writes EXPIRED once they are overdue', async () => {
    const mine = subscribe(a.key);
    const theirs = subscribe(b.key);
    // Both subscriptions are running once they report a change of their own organization's (generating again refreshes: a new version each time).
    const probes: string[] = [];
    for (const [tenant, feed] of [[a, mine], [b, theirs]] as const) {
      const { productMasterId: probe } = await scenario(tenant);
      probes.push(probe);
      await vi.waitFor(
        async () => {
          await server.call('POST', RECS, { token: tenant.key, body: { productMasterId: probe } });
          expect(feed.events.length).toBeGreaterThan(0);
        },
        { timeout: 15_000, interval: 500 },
      );
    }
    const { productMasterId } = await scenario(a);
    const res = await server.call('POST', RECS, { token: a.key, body: { productMasterId } });
    const [rec] = res.body.recommendations;
    await vi.waitFor(() => expect(mine.events.map((e) => [e.id, e.status])).toContainEqual([rec.id, 'PENDING']), { timeout: 15_000, interval: 100 });
    await server.call('POST', `${RECS}/${rec.id}/reject`, { token: a.key, body: { comment: 'later' } });
    await vi.waitFor(() => expect(mine.events.map((e) => [e.id, e.status])).toContainEqual([rec.id, 'REJECTED']), { timeout: 15_000, interval: 100 });

    // A new one, overdue as if the TTL had passed: the sweep stores EXPIRED and the subscription says so.
    const { productMasterId: other } = await scenario(a);
    const [late] = (await server.call('POST', RECS, { token: a.key, body: { productMasterId: other } })).body.recommendations;
    await server.app.prisma.transferRecommendation.update({ where: { id: late.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await vi.waitFor(
      async () => expect((await server.app.prisma.transferRecommendation.findUniqueOrThrow({ where: { id: late.id } })).status).toBe('EXPIRED'),
      { timeout: 15_000, interval: 100 },
    );
    await vi.waitFor(() => expect(mine.events.map((e) => [e.id, e.status])).toContainEqual([late.id, 'EXPIRED']), { timeout: 15_000, interval: 100 });
    // b hears only of its own probe, never of a's recommendations.
    expect(theirs.events.filter((e) => e.productMasterId !== probes[1])).toEqual([]);
    expect(mine.events.every((e) => e.productMasterId !== probes[1])).toBe(true);
    expect([...mine.errors, ...theirs.errors]).toEqual([]);
  });
});
