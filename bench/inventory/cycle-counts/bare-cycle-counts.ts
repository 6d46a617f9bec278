// The bare server's cycle-count endpoint (bench/harness/bare-server.ts): GET /api/inventory/cycle-count in the modes
// the --warehouse part measures (all-products with search and showOverdueOnly, and to-resolve), with node:http and
// the driver only, running the service's SQL in the same order: the API key, the location's owner check, then for
// all-products the statements product-schedule.ts builds (its own builders: the counts, then the page; with a
// search, the page and the totals in one statement), for to-resolve variances.ts's one statement (its builder too).
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  filteredSql,
  indexedPageSql,
  scheduleCountsSql,
  type ScheduleCounts,
  type ScheduleFilters,
  type ScheduleScope,
} from '../../../src/services/inventory/cycle-counts/product-schedule.js';
import { variancePageSql } from '../../../src/services/inventory/cycle-counts/variances.js';

type Query = (sql: string, params: unknown[]) => Promise<Record<string, any>[]>;
interface Deps {
  query: Query;
  authorize(req: IncomingMessage, res: ServerResponse, scopes: Set<string>): Promise<{ orgId: string; keyId: string } | null>;
  send(res: ServerResponse, status: number, body: unknown): void;
}

// API-key scopes granting inventory.cyclecount (src/auth/permissions.ts).
const CYCLE_COUNT_SCOPES = new Set(['*', 'inventory:write', 'inventory:*']);
const PAGE = { limit: 50, max: 200 };

const LOCATION_SQL = `SELECT COUNT(*)::int AS count FROM locations WHERE id = ANY($1) AND "organizationId" = $2`;

/** A date column as the GraphQL Date scalar writes it. */
const day = (value: unknown) => (value === null ? null : value instanceof Date ? value.toISOString().slice(0, 10) : String(value).slice(0, 10));
const invalid = (field: string, message: string) => ({ error: 'Validation failed', code: 'VALIDATION_ERROR', details: { [field]: [message] } });

function whole(value: string | null, fallback: number, max: number): number | null {
  if (value === null || value === '') return fallback;
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 && n <= max ? n : null;
}

export function cycleCountHandlers({ query, authorize, send }: Deps) {
  async function cycleCount(req: IncomingMessage, res: ServerResponse, url: URL) {
    const key = await authorize(req, res, CYCLE_COUNT_SCOPES);
    if (!key) return;
    const params = url.searchParams;
    const mode = (params.get('mode') || 'all-products').toLowerCase();
    const locationId = params.get('locationId');
    if (mode !== 'all-products' && mode !== 'to-resolve') return send(res, 400, invalid('mode', 'The bare server answers all-products and to-resolve'));
    if (!locationId) return send(res, 400, invalid('locationId', 'Required'));
    const page = whole(params.get('page'), 1, 1_000_000);
    const limit = whole(params.get('limit'), PAGE.limit, PAGE.max);
    if (page === null || limit === null) return send(res, 400, invalid('limit', `Must be an integer from 1 to ${PAGE.max}`));
    const [owned] = await query(LOCATION_SQL, [[locationId], key.orgId]);
    if (!owned || owned.count < 1) return send(res, 404, { error: 'Location not found', code: 'NOT_FOUND' });
    const run = (sql: { text: string; values: unknown[] }) => query(sql.text, sql.values);
    const pagination = (total: number) => ({ page, pageSize: limit, total, totalPages: Math.ceil(total / limit) });

    if (mode === 'to-resolve') {
      const rows = await run(variancePageSql(key.orgId, locationId, (page - 1) * limit, limit));
      const total = rows[0]?.total ?? 0;
      const lines = rows.flatMap(({ total: _total, ...row }) => (row.lineId ? [{ ...row, countedAt: row.countedAt instanceof Date ? row.countedAt.toISOString() : row.countedAt }] : []));
      return send(res, 200, { type: 'to-resolve', lines, count: total, pagination: pagination(total) });
    }

    const today = new Date().toISOString().slice(0, 10);
    const term = params.get('search')?.trim() || undefined;
    const overdueOnly = ['true', '1'].includes((params.get('showOverdueOnly') ?? '').toLowerCase());
    const scope: ScheduleScope = { organizationId: key.orgId, locationId, today };
    const filters: ScheduleFilters = { term, overdueOnly };
    let rows: Record<string, any>[];
    let total: number;
    let overdue: number;
    const skip = (page - 1) * limit;
    if (term) {
      const found = await run(filteredSql(scope, filters, skip, limit));
      rows = found.flatMap(({ total: _t, overdue: _o, ...row }) => (row.productMasterId ? [row] : []));
      [total, overdue] = [found[0]?.total ?? 0, found[0]?.overdue ?? 0];
    } else {
      const [counts] = (await run(scheduleCountsSql(scope))) as ScheduleCounts[];
      const pageSql = indexedPageSql(scope, counts!, overdueOnly, skip, limit);
      rows = pageSql ? await run(pageSql) : [];
      overdue = counts!.before + counts!.due;
      total = overdueOnly ? overdue : overdue + counts!.after;
    }
    const products = rows.map((row) => {
      const nextCountDate = day(row.nextCountDate)!;
      return { ...row, lastCountedDate: day(row.lastCountedDate), nextCountDate, locationId, isOverdue: nextCountDate <= today };
    });
    send(res, 200, { type: 'all-products', products, count: total, overdueCount: overdue, pagination: pagination(total) });
  }

  return { cycleCount };
}
