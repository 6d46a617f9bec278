import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct } from '../../support/api.js';
import type { Tenant } from '../../support/fixtures.js';
import { wsConnection } from '../../support/graphql-ws.js';
import type { TestServer } from '../../support/server.js';
import { addStock } from '../../support/stock.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';
import { changeOf, sent, STOCK_CHANGED, streams } from './stock-changed-support.js';

// stockChanged (docs/events.md): fed from the published events, one organization's only. On both databases.
let server: TestServer;
let a: Tenant;
let b: Tenant;
let productA: string;
let productB: string;

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants({ EVENT_PUBLISH_POLL_MS: '20' }));
  productA = await createProduct(server, a.key, 'EV-A');
  productB = await createProduct(server, b.key, 'EV-B');
});
afterAll(() => server?.close());


describe('stockChanged', () => {
  it("sends its organization's changes at the location, never another tenant's", async () => {
    const ws = wsConnection(server.url);
    await ws.init({ authorization: `Bearer ${a.key}` });
    const id = await ws.subscribe(STOCK_CHANGED, { locationId: a.warehouse.id });
    await streams(server, 1);
    // Another tenant's change first: a subscriber that saw it would get it before a's.
    await addStock(server.app, b.org.id, { productMasterId: productB, locationId: b.warehouse.id }, { ON_HAND: 4 });
    const line = await addStock(server.app, a.org.id, { productMasterId: productA, locationId: a.warehouse.id, lotCode: 'L1' }, { ON_HAND: 5 });
    const got = await changeOf(id, ws, line.id);
    expect(got).toMatchObject({ stockLineId: line.id, productId: productA, locationId: a.warehouse.id, changes: [{ bucket: 'ON_HAND', deltaQty: 5, qtyAfter: 5 }] });
    expect(sent(ws, id).every((c) => c.locationId === a.warehouse.id && c.productId !== productB)).toBe(true);
    ws.close();
    await streams(server, 0);
  });

  it("refuses another organization's location or product (NOT_FOUND), and neither filter", async () => {
    const ws = wsConnection(server.url);
    await ws.init({ authorization: `Bearer ${a.key}` });
    const foreign = await ws.result(await ws.subscribe(STOCK_CHANGED, { locationId: b.warehouse.id }));
    expect(JSON.stringify(foreign.payload)).toContain('NOT_FOUND');
    const foreignProduct = await ws.result(await ws.subscribe(STOCK_CHANGED, { productId: productB }));
    expect(JSON.stringify(foreignProduct.payload)).toContain('NOT_FOUND');
    const neither = await ws.result(await ws.subscribe(STOCK_CHANGED, {}));
    expect(JSON.stringify(neither.payload)).toContain('VALIDATION_ERROR');
    ws.close();
  });
});
