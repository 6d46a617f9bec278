// The bare server's channel-location page (bench/harness/bare-server.ts): GET /api/inventory/channel-location with
// locationId, page and limit, with node:http and the driver only, answered in the service's JSON (both documented
// shapes, `data` the same array as `products`, written once).
//
// The service's three statements, at once: the location with its counter of products, the channels with their
// policies at the location, and the page of the location's products (a window of location_products' index) with
// each of their stock lines there and its lot (the expiry date as its text, which both drivers give alike). The ATP rule (src/services/inventory/channel-atp/channel-atp-rule.ts)
// written again in plain JavaScript, so the comparison also checks the service's answer.
import type { IncomingMessage, ServerResponse } from 'node:http';

type Query = (sql: string, params: unknown[]) => Promise<Record<string, any>[]>;
interface Deps {
  query: Query;
  authorize(req: IncomingMessage, res: ServerResponse, scopes: Set<string>): Promise<{ orgId: string; keyId: string } | null>;
  send(res: ServerResponse, status: number, body: unknown): void;
}

// API-key scopes granting inventory.read (src/auth/permissions.ts).
const READ_SCOPES = new Set(['*', 'inventory:read', 'inventory:write', 'inventory:*']);

const LOCATION_SQL = `
  SELECT l.id, l.name, l.code,
    (SELECT SUM(d.delta) FROM row_count_deltas d WHERE d."organizationId" = l."organizationId" AND d.counted = 'location_products' AND d."scopeId" = l.id)::int AS total
  FROM locations l WHERE l.id = $1 AND l."organizationId" = $2`;
const CHANNELS_SQL = `
  SELECT c.id AS "channelId", c.name AS "channelName", c.type AS "channelType", p.id AS "policyId",
         p.mode::text AS mode, p."sharePct", p."fixedQuantity", p."lowAtpThreshold"
  FROM channels c
  LEFT JOIN channel_allocation_policies p ON p."channelId" = c.id AND p."organizationId" = c."organizationId" AND p."locationId" = $1
  WHERE c."organizationId" = $2
  ORDER BY c.name, c.id`;
const PAGE_SQL = `
  WITH pg AS (
    SELECT p.id, p.sku, p.name, c.name AS "categoryName", w.sku AS "orderSku"
    FROM (
      SELECT lp."productMasterId", lp.sku FROM location_products lp WHERE lp."organizationId" = $1 AND lp."locationId" = $2
      ORDER BY lp.sku, lp."productMasterId" LIMIT $3 OFFSET $4
    ) w
    JOIN product_masters p ON p.id = w."productMasterId" LEFT JOIN categories c ON c.id = p."categoryId")
  SELECT pg.id, pg.sku, pg.name, pg."categoryName", l."expiryDate"::text AS "expiryDate", l.recalled,
         s."qtyOnHand", s."qtyReserved", s."qtyOnHold", s."qtyPicked", s."qtyRecalled", s."qtyExpired"
  FROM pg
  LEFT JOIN stock_lines s ON s."organizationId" = $1 AND s."locationId" = $2 AND s."productMasterId" = pg.id
  LEFT JOIN lots l ON l.id = s."lotId"
  ORDER BY pg."orderSku", pg.id`;

function intParam(value: string | null, fallback: number, max: number): number | null {
  if (value === null) return fallback;
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 && n <= max ? n : null;
}

export function channelPageHandlers({ query, authorize, send }: Deps) {
  async function channelLocation(req: IncomingMessage, res: ServerResponse, url: URL) {
    const key = await authorize(req, res, READ_SCOPES);
    if (!key) return;
    const locationId = url.searchParams.get('locationId');
    const page = intParam(url.searchParams.get('page'), 1, 1_000_000);
    const limit = intParam(url.searchParams.get('limit'), 50, 200);
    if (!locationId || page === null || limit === null) return send(res, 400, { error: 'Validation failed', code: 'VALIDATION_ERROR' });
    const [locations, channels, rows] = await Promise.all([
      query(LOCATION_SQL, [locationId, key.orgId]),
      query(CHANNELS_SQL, [locationId, key.orgId]),
      query(PAGE_SQL, [key.orgId, locationId, limit, (page - 1) * limit]),
    ]);
    const location = locations[0];
    if (!location) return send(res, 404, { error: 'Location not found', code: 'NOT_FOUND' });
    const today = new Date().toISOString().slice(0, 10);
    const products: { id: string; sku: string; name: string; categoryName: string | null; onHand: number; reserved: number; available: number }[] = [];
    for (const r of rows) {
      let last = products.at(-1);
      if (!last || last.id !== r.id) products.push((last = { id: r.id, sku: r.sku, name: r.name, categoryName: r.categoryName, onHand: 0, reserved: 0, available: 0 }));
      if (r.qtyOnHand === null) continue;
      last.onHand += r.qtyOnHand;
      last.reserved += r.qtyReserved;
      if (r.recalled || (r.expiryDate !== null && r.expiryDate < today)) continue;
      last.available += Math.max(0, r.qtyOnHand - r.qtyReserved - r.qtyOnHold - r.qtyPicked - r.qtyRecalled - r.qtyExpired);
    }
    const columns: Record<string, any>[] = channels.map((c) => ({ ...c, lowAtpThreshold: c.lowAtpThreshold ?? 0 }));
    const entries = products.map((p) => {
      const list = columns.map((c) => {
        const policy = c.policyId && c.mode;
        const atp = !policy
          ? p.available
          : c.mode === 'SHARE'
            ? Math.max(0, Math.floor(p.available * (c.sharePct ?? 0) + 1e-9))
            : Math.max(0, Math.min(c.fixedQuantity ?? 0, p.available));
        const threshold = policy ? c.lowAtpThreshold : null;
        const severity = atp <= 0 ? 'CRITICAL' : atp < (threshold ?? 0) ? 'LOW' : 'OK';
        return { channelId: c.channelId, channelName: c.channelName, atp, onHand: p.onHand, reserved: p.reserved, available: p.available, severity, threshold, policyId: c.policyId };
      });
      const atps = list.map((c) => c.atp);
      return {
        productMasterId: p.id,
        productName: p.name,
        globalSku: p.sku,
        categoryName: p.categoryName,
        channels: list,
        totalOnHand: p.onHand,
        totalReserved: p.reserved,
        totalAvailable: p.available,
        minAtp: atps.length ? Math.min(...atps) : 0,
        maxAtp: atps.length ? Math.max(...atps) : 0,
        hasCritical: list.some((c) => c.severity === 'CRITICAL'),
      };
    });
    const total = location.total ?? 0;
    const list = JSON.stringify(entries);
    const rest = JSON.stringify({ channels: columns, location: { id: location.id, name: location.name, code: location.code }, pagination: { page, pageSize: limit, total, totalPages: Math.ceil(total / limit) } });
    const text = `{"products":${list},${rest.slice(1, -1)},"data":${list}}`;
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  }

  return { channelLocation };
}
