import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlData } from '../support/api.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { oneOfEach } from '../support/one-of-each.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { countStatements } from '../support/statement-count.js';

// The object links next to *Id fields: the record of the id, null without one, refused alone without the
// linked type's permission, and batched.
let server: TestServer;
let a: Tenant;
let ids: Record<string, string>;

beforeAll(async () => {
  server = await startTestServer();
  a = await createTenant(server.app.prisma, { capabilities: ['ai.forecasting.demand'] });
  ids = await oneOfEach(server.app, a, 'links');
});
afterAll(() => server?.close());

describe('object links', () => {
  it('answer the record of the id next to them', async () => {
    const data = await graphqlData(
      server,
      a.key,
      `query ($transfer: ID!, $scenario: ID!) {
        stockTransactions(first: 5) { edges { node { inventoryItemId stockLine { id } productMasterId product { id } locationId location { id } } } }
        inventoryTransfer(id: $transfer) { lines { lots { sourceStockLine { id } lot { id product { id } } bin { id location { id } } } } }
        forecastRuns(scenarioId: $scenario, first: 5) { edges { node { scenarioId scenario { id } } } }
      }`,
      { transfer: ids.InventoryTransfer, scenario: ids.ForecastScenario },
    );
    const [transaction] = data.stockTransactions.edges.map((e: any) => e.node);
    expect(transaction).toEqual({
      inventoryItemId: ids.StockLine, stockLine: { id: ids.StockLine },
      productMasterId: ids.Product, product: { id: ids.Product },
      locationId: a.warehouse.id, location: { id: a.warehouse.id },
    });
    expect(data.inventoryTransfer.lines[0].lots[0]).toEqual({
      sourceStockLine: { id: ids.StockLine }, lot: { id: ids.Lot, product: { id: ids.Product } }, bin: { id: ids.Bin, location: { id: a.warehouse.id } },
    });
    expect(data.forecastRuns.edges[0].node).toEqual({ scenarioId: ids.ForecastScenario, scenario: { id: ids.ForecastScenario } });
  });

  it('answer null without an id', async () => {
    const data = await graphqlData(
      server,
      a.key,
      `{ inventoryLevels(first: 5) { edges { node { preferredBin { id } replenishmentLocation { id } } } }
         transferRecommendations(first: 5) { edges { node { transferId transfer { id } } } } }`,
    );
    expect(data.inventoryLevels.edges[0].node).toEqual({ preferredBin: null, replenishmentLocation: null });
    expect(data.transferRecommendations.edges[0].node).toEqual({ transferId: null, transfer: null });
  });

  it('need what the linked type needs: refused alone, the rest answers', async () => {
    const planner = await a.keyWith(['planning:*']); // transfers.read, not inventory.read
    const res = await server.graphql(`query ($id: ID!) { inventoryTransfer(id: $id) { id lines { lots { lot { id } } } } }`, { id: ids.InventoryTransfer }, planner);
    expect(res.body.data.inventoryTransfer.id).toBe(ids.InventoryTransfer);
    expect(res.body.data.inventoryTransfer.lines[0].lots[0].lot).toBeNull();
    expect(res.body.errors.map((e: any) => [e.path.join('.'), e.extensions.code])).toEqual([['inventoryTransfer.lines.0.lots.0.lot', 'INSUFFICIENT_SCOPE']]);
  });

  it('recordStock: the links of its lines cost as many statements for 12 lines as for 2', async () => {
    const products = await Promise.all(
      Array.from({ length: 12 }, (_, i) => server.app.prisma.productMaster.create({ data: { organizationId: a.org.id, sku: `RS-${i}`, name: `Received ${i}` } })),
    );
    const receive = (count: number, links: boolean, round: number) => {
      const lines = products.slice(0, count).map((p, i) => ({ productMasterId: p.id, locationId: a.warehouse.id, lotCode: `RS${round}-${i}`, binCode: `RB${i}`, quantity: 1 }));
      const selection = links ? 'stockLineId stockLine { id product { id } lot { id } bin { id } } product { id } location { id } lot { id } bin { id }' : 'stockLineId';
      return countStatements(server, () =>
        server.graphql(`mutation ($input: RecordStockInput!) { recordStock(input: $input) { ... on RecordStockResult { lines { ${selection} } } } }`, { input: { lines } }, a.key),
      );
    };
    const linkCost = async (count: number, round: number) => {
      const plain = await receive(count, false, round);
      const linked = await receive(count, true, round + 1);
      expect(linked.result.body.errors).toBeUndefined();
      expect(linked.result.body.data.recordStock.lines).toHaveLength(count);
      expect(linked.result.body.data.recordStock.lines.every((l: any) => l.stockLine.id === l.stockLineId && l.lot.id === l.stockLine.lot.id)).toBe(true);
      return linked.statements - plain.statements;
    };
    // Each receipt makes new lots (the round is in the lot code), so the written rows are alike in both.
    expect(await linkCost(12, 10)).toBe(await linkCost(2, 20));
  });
});
