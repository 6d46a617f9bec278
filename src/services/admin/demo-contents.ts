// What the demo organization holds beyond its users and key, so that every area shows something on a first start:
// bins, a few hundred products in categories, stock with lots and expiry dates, levels, a channel policy, two years of
// weekly demand with seasonality and a promotion, a published scenario with a forecast run, and pending transfer
// recommendations. Deterministic (no random source: every quantity follows from the product's and location's
// numbers), written set-based, stock through the ledger.
import { type RequestContext } from '../../context.js';
import { inTransaction } from '../../db/transactions.js';
import { allocationPolicyInput } from '../../contracts/inventory/channel-atp/allocation-policy.js';
import { externalEventCreate } from '../../contracts/forecasting/events/external-event.js';
import { forecastScenarioCreate } from '../../contracts/forecasting/scenarios/forecast-scenario.js';
import { forecastGenerateFields } from '../../contracts/forecasting/runs/forecast-run.js';
import { generateRecommendations } from '../../contracts/transfers/recommendations/recommendations.js';
import { alertRuleCreate } from '../../contracts/alerts/alert-rules.js';
import { createAlertRule } from '../alerts/alert-rules.js';
import { setAllocationPolicy } from '../inventory/channel-atp/allocation-policies.js';
import { applyStockChangeSeries, createStockLines, lineKeyOf } from '../inventory/ledger/stock-ledger.js';
import { createExternalEvent } from '../forecasting/events/external-events.js';
import { createForecastScenario, publishForecastScenario } from '../forecasting/scenarios/forecast-scenarios.js';
import { generateForecast } from '../forecasting/runs/forecast-runs.js';
import { generateTransferRecommendations } from '../transfers/recommendations/generate-recommendations.js';
import { parseInput } from '../tenant.js';

/** Products per category beyond the named ones: 6 categories × 50 = 300. */
const PER_CATEGORY = 50;
const WEEKS = 104;
const DAY_MS = 86_400_000;

export const DEMO_CATEGORIES: { name: string; prefix: string; perishable: boolean; baseCost: number; items: string[] }[] = [
  { name: 'Electronics', prefix: 'ELEC', perishable: false, baseCost: 12, items: ['Wireless Mouse', 'USB-C Charger 65W', 'Bluetooth Headphones', 'HDMI Cable 2m', 'Keyboard', 'Webcam', 'Power Bank', 'Smart Plug'] },
  { name: 'Home & Kitchen', prefix: 'HOME', perishable: false, baseCost: 9, items: ['Stainless Steel Kettle', 'Chef Knife 8"', 'Glass Storage Set', 'Cotton Bath Towel', 'Frying Pan', 'Cutting Board', 'Mixing Bowl', 'Tea Towel'] },
  { name: 'Grocery', prefix: 'GROC', perishable: true, baseCost: 4, items: ['Arabica Coffee Beans 1kg', 'Green Tea 100 bags', 'Extra Virgin Olive Oil 1L', 'Organic Rolled Oats 1kg', 'Basmati Rice 2kg', 'Dark Chocolate', 'Honey 500g', 'Pasta 500g'] },
  { name: 'Dairy', prefix: 'DAIR', perishable: true, baseCost: 2, items: ['Whole Milk 1L', 'Greek Yogurt', 'Cheddar 400g', 'Butter 250g', 'Cream 200ml', 'Mozzarella', 'Skyr', 'Kefir'] },
  { name: 'Garden', prefix: 'GARD', perishable: false, baseCost: 7, items: ['Garden Hose 20m', 'Pruning Shears', 'Seed Mix', 'Plant Pot', 'Watering Can', 'Gloves', 'Compost 40L', 'Rake'] },
  { name: 'Outdoor', prefix: 'OUTD', perishable: false, baseCost: 15, items: ['Umbrella', 'Sunscreen SPF50', 'Camping Chair', 'Cooler Box', 'Picnic Blanket', 'Flashlight', 'Sunglasses', 'Water Bottle'] },
];

export interface DemoLocation {
  id: string;
  code: string;
}

/** Monday (UTC) of the week holding `date`, as yyyy-mm-dd. */
function mondayOf(date: Date): string {
  const day = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
  return new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * DAY_MS).toISOString().slice(0, 10);
}
const dayAfter = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/**
 * Fills the demo organization. `ctx` acts for it with every permission. Returns the products' ids and the scenario,
 * for the banner. The forecast run it starts is computed by the forecast-run workers after the start.
 */
export async function seedDemoContents(ctx: RequestContext, locations: { dcEast: DemoLocation; dcWest: DemoLocation; store1: DemoLocation; store2: DemoLocation }, channels: { online: string }) {
  const organizationId = ctx.auth!.organization.id;
  const today = new Date();
  const thisMonday = mondayOf(today);

  // Products: the named ones first, then numbered ones, each category's SKUs in order.
  const products: { sku: string; name: string; description: string; unitCost: number; categoryName: string; perishable: boolean; n: number }[] = [];
  for (const category of DEMO_CATEGORIES) {
    for (let i = 0; i < PER_CATEGORY; i++) {
      const named = category.items[i];
      products.push({
        sku: `${category.prefix}-${String(i + 1).padStart(3, '0')}`,
        name: named ?? `${category.name} item ${i + 1}`,
        description: named ? `${named} (${category.name.toLowerCase()})` : `A ${category.name.toLowerCase()} product of the demo catalog`,
        unitCost: Math.round((category.baseCost * (1 + (i % 7) * 0.35)) * 100) / 100,
        categoryName: category.name,
        perishable: category.perishable,
        n: products.length,
      });
    }
  }

  const ids = await inTransaction(ctx, async (tx) => {
    const categoryIds = new Map<string, string>();
    for (const category of DEMO_CATEGORIES) {
      categoryIds.set(category.name, (await tx.prisma.category.create({ data: { organizationId, name: category.name } })).id);
    }
    await tx.prisma.productMaster.createMany({
      data: products.map((p) => ({ organizationId, sku: p.sku, name: p.name, description: p.description, unitCost: p.unitCost, categoryId: categoryIds.get(p.categoryName)! })),
    });
    const rows = await tx.prisma.productMaster.findMany({ where: { organizationId }, select: { id: true, sku: true } });
    const bySku = new Map(rows.map((r) => [r.sku, r.id]));
    const productIds = products.map((p) => bySku.get(p.sku)!);

    // Bins at the distribution centers: A-01 … A-05.
    const dcs = [locations.dcEast, locations.dcWest];
    await tx.prisma.bin.createMany({ data: dcs.flatMap((dc) => [1, 2, 3, 4, 5].map((b) => ({ organizationId, locationId: dc.id, code: `A-0${b}` }))) });
    const bins = await tx.prisma.bin.findMany({ where: { organizationId }, select: { id: true, locationId: true, code: true } });
    const binOf = (locationId: string, n: number) => bins.find((b) => b.locationId === locationId && b.code === `A-0${(n % 5) + 1}`)?.id ?? null;

    // Lots of the perishable products: one expiring in 10 days (to see expiry alerts and FEFO), one in 90.
    const perishable = products.filter((p) => p.perishable);
    await tx.prisma.lot.createMany({
      data: perishable.flatMap((p) => [
        { organizationId, productMasterId: productIds[p.n]!, code: `${p.sku}-L1`, expiryDate: new Date(`${dayAfter(thisMonday, 10 + (p.n % 5))}T00:00:00Z`) },
        { organizationId, productMasterId: productIds[p.n]!, code: `${p.sku}-L2`, expiryDate: new Date(`${dayAfter(thisMonday, 90 + (p.n % 30))}T00:00:00Z`) },
      ]),
    });
    const lots = new Map((await tx.prisma.lot.findMany({ where: { organizationId }, select: { id: true, code: true } })).map((l) => [l.code, l.id]));

    // Stock: plenty at the distribution centers, little at the stores (the second store least: transfers to
    // propose), every product at every location; perishables in their two lots.
    const all = [locations.dcEast, locations.dcWest, locations.store1, locations.store2];
    const quantity = (p: (typeof products)[number], location: DemoLocation) => {
      const base = 20 + ((p.n * 37) % 60);
      if (location === locations.dcEast) return base * 6;
      if (location === locations.dcWest) return base * 4;
      if (location === locations.store1) return Math.round(base * 0.8);
      return p.n % 3 === 0 ? 0 : Math.round(base * 0.15);
    };
    const keys: { productMasterId: string; locationId: string; lotId?: string | null; binId?: string | null; qty: number }[] = [];
    for (const p of products) {
      for (const location of all) {
        const total = quantity(p, location);
        if (!total) continue;
        const binId = binOf(location.id, p.n);
        if (p.perishable) {
          const early = Math.round(total * 0.3);
          keys.push({ productMasterId: productIds[p.n]!, locationId: location.id, lotId: lots.get(`${p.sku}-L1`)!, binId, qty: early });
          keys.push({ productMasterId: productIds[p.n]!, locationId: location.id, lotId: lots.get(`${p.sku}-L2`)!, binId, qty: total - early });
        } else {
          keys.push({ productMasterId: productIds[p.n]!, locationId: location.id, binId, qty: total });
        }
      }
    }
    await createStockLines(tx, keys);
    const lines = await tx.prisma.stockLine.findMany({ where: { organizationId }, select: { id: true, productMasterId: true, lineKey: true } });
    const lineOf = new Map(lines.map((l) => [`${l.productMasterId}\u0000${l.lineKey}`, l.id]));
    await applyStockChangeSeries(
      tx,
      keys.filter((k) => k.qty > 0).map((k) => ({ stockLineId: lineOf.get(`${k.productMasterId}\u0000${lineKeyOf(k)}`)!, deltas: { ON_HAND: k.qty }, transactionType: 'RECEIPT', comment: 'Demo opening stock' })),
    );

    // Levels: A, B and C classes by position; stores with minimums their stock may not meet.
    await tx.prisma.inventoryLevel.createMany({
      data: products.flatMap((p) =>
        all.map((location) => {
          const store = location === locations.store1 || location === locations.store2;
          const min = store ? 10 + (p.n % 15) : 40 + (p.n % 40);
          return {
            organizationId,
            productMasterId: productIds[p.n]!,
            locationId: location.id,
            minQuantity: min,
            reorderQuantity: min * 2,
            maxQuantity: min * 5,
            abcClass: p.n % 10 < 2 ? ('A' as const) : p.n % 10 < 5 ? ('B' as const) : ('C' as const),
            expectedLeadTimeDays: store ? 3 : 10,
            lastCountedAt: p.n % 4 === 0 ? null : new Date(today.getTime() - ((p.n * 13) % 200) * DAY_MS),
          };
        }),
      ),
    });

    // Two years of weekly demand at the stores and the online channel's warehouse: a base per product and
    // location, a yearly season (peaking in summer for Garden and Outdoor, in winter for the rest), a small
    // deterministic wobble, and two promotion weeks at the Downtown Store lifted by 25%.
    const demandLocations = [locations.store1, locations.store2, locations.dcEast];
    const firstWeek = dayAfter(thisMonday, -7 * WEEKS);
    const promoFrom = dayAfter(thisMonday, -7 * 30);
    const promoTo = dayAfter(promoFrom, 13);
    const summer = new Set(['Garden', 'Outdoor']);
    await tx.prisma.$executeRaw`
      INSERT INTO demand_history (id, "organizationId", "productMasterId", "locationId", channel, "weekStart", "actualUnits", "forecastUnits", "updatedAt")
      SELECT gen_random_uuid()::text, ${organizationId}, s.product, s.location, 'ALL', w.week,
        GREATEST(0, round(s.base * (1 + s.amplitude * cos(2 * pi() * (extract(doy FROM w.week) - s.peak) / 365.25))
          * (CASE WHEN s.promoted AND w.week BETWEEN ${promoFrom}::date AND ${promoTo}::date THEN 1.25 ELSE 1 END)
          + ((abs(hashtext(s.product || w.week::text)) % 7) - 3))),
        GREATEST(0, round(s.base * (1 + s.amplitude * cos(2 * pi() * (extract(doy FROM w.week) - s.peak) / 365.25))))
        , now()
      FROM unnest(${demandLocations.flatMap(() => productIds)}::text[],
                  ${demandLocations.flatMap((l) => products.map(() => l.id))}::text[],
                  ${demandLocations.flatMap((l, li) => products.map((p) => (l === locations.dcEast ? 2 : 1) * (4 + ((p.n * 7 + li * 3) % 16))))}::float8[],
                  ${demandLocations.flatMap(() => products.map((p) => 0.15 + (p.n % 4) * 0.08))}::float8[],
                  ${demandLocations.flatMap(() => products.map((p) => (summer.has(p.categoryName) ? 182 : 15)))}::float8[],
                  ${demandLocations.flatMap((l) => products.map(() => l === locations.store1))}::boolean[])
        AS s(product, location, base, amplitude, peak, promoted)
      CROSS JOIN generate_series(${firstWeek}::date, ${dayAfter(thisMonday, -7)}::date, interval '7 days') AS w(week)`;
    return { productIds, promoFrom };
  });

  // The promotion as a forecasting event at the Downtown Store: the past one the history shows, and the next, four
  // weeks ahead, which the forecast lifts.
  for (const [name, from] of [['Downtown spring sale', ids.promoFrom], ['Downtown summer sale', dayAfter(thisMonday, 28)]] as const) {
    await createExternalEvent(
      ctx,
      parseInput(externalEventCreate, {
        name,
        type: 'PROMOTION',
        locationId: locations.store1.id,
        startsAt: `${from}T00:00:00Z`,
        endsAt: `${dayAfter(from, 13)}T23:59:59Z`,
        value: { liftPct: 0.25, description: 'Two weeks of a quarter more demand' },
      }),
    );
  }

  await setAllocationPolicy(ctx, parseInput(allocationPolicyInput, { channelId: channels.online, locationId: locations.dcEast.id, mode: 'SHARE', sharePct: 0.3, lowAtpThreshold: 20 }));

  const scenario = await createForecastScenario(ctx, parseInput(forecastScenarioCreate, { name: 'Baseline plan', type: 'BASELINE', description: 'The demo plan: the history as it is, the promotions as planned' }));
  await generateForecast(ctx, scenario.id, parseInput(forecastGenerateFields, { horizon: 13 }));
  await publishForecastScenario(ctx, scenario.id);

  const recommendations = await generateTransferRecommendations(ctx, parseInput(generateRecommendations, { unitMargin: 4 }));
  // Rules whose alerts show soon: the first lots expire within two weeks (the sweep raises them), and any stock change
  // that leaves a product below its minimum raises one.
  for (const rule of [
    { kind: 'LOTS_EXPIRING', threshold: 21, severity: 'WARNING' },
    { kind: 'AVAILABLE_BELOW_MIN', severity: 'CRITICAL' },
  ] as const) {
    await createAlertRule(ctx, parseInput(alertRuleCreate, rule));
  }
  return { products: ids.productIds.length, scenarioId: scenario.id, recommendations: recommendations.total };
}
