import { systemContext } from '../../src/context.js';
import { inTransaction } from '../../src/db/transactions.js';
import { applyStockChange } from '../../src/services/inventory/ledger/stock-ledger.js';
import { createProduct } from './api.js';
import { dayAfter } from './demand-history.js';
import type { Tenant } from './fixtures.js';
import type { TestServer } from './server.js';
import { addStock } from './stock.js';

/** Test set-up of planning data (levels, demand, purchase orders, forecasts of record) written straight to the tables. */
export const today = () => new Date().toISOString().slice(0, 10);
export const day = (n: number) => dayAfter(today(), n);
/** The Monday of this ISO week (UTC). */
export const thisMonday = () => dayAfter(today(), -((new Date(`${today()}T00:00:00Z`).getUTCDay() + 6) % 7));
export const setupActor = { createdByType: 'API_KEY', createdBy: 'test-setup' };

export type Level = { min?: number; reorder?: number; max?: number; lead?: number | null; review?: number | null; planner?: [number, number] };

let n = 0;

export function planningData(server: TestServer) {
  const db = server.app.prisma;
  return {
    place: (tag: string, tenant: Tenant) => db.location.create({ data: { organizationId: tenant.org.id, code: `PL-${tag}`, name: `Planning ${tag}` } }),

    /** A product with an inventory level at the location and `stock` units on hand there. */
    async product(tag: string, locationId: string, level: Level, stock: number, tenant: Tenant) {
      const id = await createProduct(server, tenant.key, tag);
      await db.inventoryLevel.create({
        data: {
          organizationId: tenant.org.id, productMasterId: id, locationId, minQuantity: level.min ?? 0, reorderQuantity: level.reorder ?? 0, maxQuantity: level.max ?? 0,
          expectedLeadTimeDays: level.lead ?? null, replenishmentPeriodDays: level.review ?? null,
          forecastQuantity: level.planner?.[0] ?? null, forecastPeriodDays: level.planner?.[1] ?? null,
        },
      });
      if (stock) await addStock(server.app, tenant.org.id, { productMasterId: id, locationId }, { ON_HAND: stock });
      return id;
    },

    /** Demand that left the shelf through the ledger: a downward adjustment (counts as demand). */
    async takeStock(productMasterId: string, locationId: string, units: number, tenant: Tenant) {
      const org = await db.organization.findUniqueOrThrow({ where: { id: tenant.org.id } });
      const ctx = systemContext(server.app, { organization: org, actor: { type: 'apiKey', id: 'test-setup', scopes: ['*'] }, origin: '127.0.0.1' });
      const line = await db.stockLine.findFirstOrThrow({ where: { productMasterId, locationId } });
      await inTransaction(ctx, (ctx) => applyStockChange(ctx, { stockLineId: line.id, deltas: { ON_HAND: -units }, transactionType: 'ADJUSTMENT' }));
    },

    /** A published scenario with a completed run whose series forecast these weeks. */
    async forecastOfRecord(tenant: Tenant, series: { productMasterId: string; locationId: string; weekly: number[] }[]) {
      const organizationId = tenant.org.id;
      const scenario = await db.forecastScenario.create({ data: { organizationId, name: 'Plan', type: 'BASELINE', status: 'PUBLISHED', publishedAt: new Date(), ...setupActor } });
      const run = await db.forecastRun.create({
        data: { organizationId, scenarioId: scenario.id, status: 'COMPLETED', horizon: 4, levels: [80], totalSeries: series.length, totalBatches: 1, completedAt: new Date(), ...setupActor },
      });
      const monday = new Date(`${thisMonday()}T00:00:00Z`);
      await db.forecastRunSeries.createMany({
        data: series.map((s, i) => ({
          runId: run.id, seriesIndex: i, productMasterId: s.productMasterId, locationId: s.locationId, channel: 'ALL', method: 'MEAN', errorScale: 'NONE',
          intervalSource: 'NONE', historyWeeks: 8, lastHistoryWeek: monday, eventIds: [], totalForecast: s.weekly.reduce((x, y) => x + y, 0),
          firstWeek: monday, forecasts: s.weekly, lowers: s.weekly, uppers: s.weekly, lowers95: s.weekly, uppers95: s.weekly, intervals: {},
          liftFactors: s.weekly.map(() => 1), adjustmentFactors: s.weekly.map(() => 1), overridden: s.weekly.map(() => false), modelForecasts: s.weekly,
          overrideIds: [], liftSources: [], pointEventIds: [],
        })),
      });
    },

    /** A purchase order of one line to a new supplier. */
    async purchaseOrder(
      tenant: Tenant,
      locationId: string,
      productMasterId: string,
      quantity: number,
      options: { status?: 'PENDING' | 'APPROVED' | 'SENT' | 'RECEIVED'; expectedAt?: string; leadTimeDays?: number; received?: number } = {},
    ) {
      const organizationId = tenant.org.id;
      const tag = `${process.pid}-${n++}`;
      const supplier = await db.supplier.create({ data: { organizationId, code: `SUP-${tag}`, name: `Supplier ${tag}`, leadTimeDays: options.leadTimeDays ?? null } });
      return db.purchaseOrder.create({
        data: {
          organizationId, number: `PO-${tag}`, supplierId: supplier.id, destinationLocationId: locationId, status: options.status ?? 'SENT',
          expectedAt: options.expectedAt ? new Date(`${options.expectedAt}T00:00:00Z`) : null,
          lines: { create: [{ lineNumber: 1, productMasterId, quantity, receivedQuantity: options.received ?? 0 }] },
        },
        include: { supplier: true },
      });
    },
  };
}
