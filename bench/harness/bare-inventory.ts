// The bare server's inventory endpoints (bench/harness/bare-server.ts): what POST /api/inventory/adjust and
// POST /api/inventory/availability/check need at least, with node:http and the driver only.
//
// adjust: the API key, the reason code by id or code, then ONE statement that adds the delta to on
// hand under the same guard as the service (no part may exceed on hand) and writes the ledger row
// from the updated line (UPDATE ... RETURNING feeding INSERT): atomic without an interactive
// transaction, and no lost update since the addition happens in the row under its lock.
// check: the API key, then the service's one query, folded by the same rule (quantities.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';

type Query = (sql: string, params: unknown[]) => Promise<Record<string, any>[]>;
interface Deps {
  query: Query;
  authorize(req: IncomingMessage, res: ServerResponse, scopes: Set<string>): Promise<{ orgId: string; keyId: string } | null>;
  send(res: ServerResponse, status: number, body: unknown): void;
}

// API-key scopes granting inventory.adjust and inventory.read (src/auth/permissions.ts).
const ADJUST_SCOPES = new Set(['*', 'inventory:write', 'inventory:*']);
const READ_SCOPES = new Set(['*', 'inventory:read', 'inventory:write', 'inventory:*']);

const REASON_SQL = `SELECT id, code, direction::text AS direction FROM reason_codes
  WHERE "organizationId" = $1 AND active AND (id = $2 OR lower(code) = lower($2)) LIMIT 1`;
const PARTS = `"qtyReserved" + "qtyOnHold" + "qtyPicked" + "qtyRecalled" + "qtyExpired"`;
const ADJUST_SQL = `
  WITH u AS (
    UPDATE stock_lines SET "qtyOnHand" = "qtyOnHand" + $3::int, "updatedAt" = now()
    WHERE id = $1 AND "organizationId" = $2 AND "qtyOnHand" + $3::int >= 0 AND ${PARTS} <= "qtyOnHand" + $3::int
    RETURNING *
  ), t AS (
    INSERT INTO stock_transactions (id, "organizationId", "stockLineId", "productMasterId", "locationId", "transactionType", bucket,
      "deltaQty", "qtyBefore", "qtyAfter", "reasonCodeId", "reasonCode", "actorType", "createdBy", "sourceType", "sourceId")
    SELECT gen_random_uuid()::text, $2, u.id, u."productMasterId", u."locationId", 'ADJUSTMENT', 'ON_HAND',
      $3::int, u."qtyOnHand" - $3::int, u."qtyOnHand", $4, $5, 'API_KEY', $6, 'ADJUSTMENT', gen_random_uuid()::text
    FROM u
    RETURNING *
  )
  SELECT row_to_json(t) AS transaction, row_to_json(u) AS line FROM t, u`;
const CHECK_SQL = `
  SELECT r.sku, r."locationId", s."qtyOnHand", s."qtyReserved", s."qtyOnHold", s."qtyPicked", s."qtyRecalled", s."qtyExpired",
         l."expiryDate"::text AS "expiryDate", l.recalled
  FROM unnest($2::text[], $3::text[]) AS r(sku, "locationId")
  JOIN product_masters p ON p."organizationId" = $1 AND p.sku = r.sku
  JOIN stock_lines s ON s."organizationId" = $1 AND s."productMasterId" = p.id AND s."locationId" = r."locationId"
  LEFT JOIN lots l ON l.id = s."lotId"`;

function readJson(req: IncomingMessage): Promise<any> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        resolve(undefined);
      }
    });
  });
}

const invalid = (field: string, message: string) => ({ error: 'Validation failed', code: 'VALIDATION_ERROR', details: { [field]: [message] } });

export function inventoryHandlers({ query, authorize, send }: Deps) {
  async function adjust(req: IncomingMessage, res: ServerResponse) {
    const body = await readJson(req);
    const key = await authorize(req, res, ADJUST_SCOPES);
    if (!key) return;
    const { inventoryItemId, delta, reasonCodeId } = body ?? {};
    if (typeof inventoryItemId !== 'string' || !inventoryItemId) return send(res, 400, invalid('inventoryItemId', 'Required'));
    if (!Number.isInteger(delta) || delta === 0) return send(res, 400, invalid('delta', 'A whole number other than 0'));
    if (typeof reasonCodeId !== 'string' || !reasonCodeId.trim()) return send(res, 400, invalid('reasonCodeId', 'Required'));
    const [reason] = await query(REASON_SQL, [key.orgId, reasonCodeId.trim()]);
    if (!reason) return send(res, 400, invalid('reasonCodeId', `Unknown or inactive reason code: ${reasonCodeId}`));
    if ((reason.direction === 'DECREASE' && delta > 0) || (reason.direction === 'INCREASE' && delta < 0)) {
      return send(res, 400, invalid('reasonCodeId', `Reason ${reason.code} does not allow this direction`));
    }
    const [row] = await query(ADJUST_SQL, [inventoryItemId, key.orgId, delta, reason.id, reason.code, key.keyId]);
    if (!row) {
      const [exists] = await query('SELECT 1 FROM stock_lines WHERE id = $1 AND "organizationId" = $2', [inventoryItemId, key.orgId]);
      if (!exists) return send(res, 404, { error: 'Inventory item not found', code: 'NOT_FOUND' });
      return send(res, 400, { error: 'On hand cannot go below what is reserved, on hold, picked, recalled or expired', code: 'INSUFFICIENT_STOCK' });
    }
    const { transaction, line } = row;
    send(res, 200, { success: true, message: `Adjusted on hand by ${delta}`, transaction, inventoryItem: line });
  }

  async function checkAvailability(req: IncomingMessage, res: ServerResponse) {
    const body = await readJson(req);
    const key = await authorize(req, res, READ_SCOPES);
    if (!key) return;
    const items = body?.items;
    if (!Array.isArray(items) || items.length < 1 || items.length > 1000) return send(res, 400, invalid('items', '1 to 1000 items'));
    for (const item of items) {
      if (typeof item?.sku !== 'string' || typeof item.locationId !== 'string' || !Number.isInteger(item.quantity) || item.quantity < 1) {
        return send(res, 400, invalid('items', 'Each item needs sku, locationId and a quantity of at least 1'));
      }
    }
    // Each pair once, as the service does: a repeated pair would otherwise count its lines twice.
    const pairs = [...new Map(items.map((i) => [`${i.sku.trim()}\u0000${i.locationId}`, i])).values()];
    const rows = await query(CHECK_SQL, [key.orgId, pairs.map((i) => i.sku.trim()), pairs.map((i) => i.locationId)]);
    const today = new Date().toISOString().slice(0, 10);
    const available = new Map<string, number>();
    for (const r of rows) {
      if (r.recalled || (r.expiryDate !== null && r.expiryDate < today)) continue;
      const free = Math.max(0, r.qtyOnHand - r.qtyReserved - r.qtyOnHold - r.qtyPicked - r.qtyRecalled - r.qtyExpired);
      const pair = `${r.sku}\u0000${r.locationId}`;
      available.set(pair, (available.get(pair) ?? 0) + free);
    }
    const results = items.map((item) => {
      const availableQuantity = available.get(`${item.sku.trim()}\u0000${item.locationId}`) ?? 0;
      return { sku: item.sku, locationId: item.locationId, requestedQuantity: item.quantity, availableQuantity, isAvailable: availableQuantity >= item.quantity };
    });
    send(res, 200, { results });
  }

  return { adjust, checkAvailability };
}
