// The bare server's planning endpoint (bench/harness/bare-server.ts): GET /api/planning/recommendations?locationId=
// with node:http and the driver only, doing what the service does in the same order: the API key, the location's
// owner check, then the one statement of recommendForLocation, built by the service's own recommendationSql (so the
// yardstick always runs exactly the service's SQL) in a transaction under the service's planner settings, and the rows
// as the REST answer writes them. PostgreSQL only (its own pg pool of 10 on DATABASE_URL, for the transaction).
import type { IncomingMessage, ServerResponse } from 'node:http';
import pg from 'pg';
import { RECOMMENDATION_SETTINGS, recommendationSql } from '../../../src/services/planning/recommendations/recommend-for-location.js';

type Query = (sql: string, params: unknown[]) => Promise<Record<string, any>[]>;
interface Deps {
  query: Query;
  authorize(req: IncomingMessage, res: ServerResponse, scopes: Set<string>): Promise<{ orgId: string; keyId: string } | null>;
  send(res: ServerResponse, status: number, body: unknown): void;
}

// API-key scopes granting planning.read (src/auth/permissions.ts).
const PLANNING_READ_SCOPES = new Set(['*', 'planning:*']);
const LOCATION_SQL = `SELECT id FROM locations WHERE id = $1 AND "organizationId" = $2 LIMIT 1`;

export function planningHandlers({ query, authorize, send }: Deps) {
  const pool = process.env.DATABASE_URL ? new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 }) : null;
  async function recommendations(req: IncomingMessage, res: ServerResponse, url: URL) {
    const key = await authorize(req, res, PLANNING_READ_SCOPES);
    if (!key) return;
    const locationId = url.searchParams.get('locationId')?.trim();
    if (!locationId) return send(res, 400, { error: 'Validation failed', code: 'VALIDATION_ERROR', details: { locationId: ['Required'] } });
    const [owned] = await query(LOCATION_SQL, [locationId, key.orgId]);
    if (!owned) return send(res, 404, { error: 'Location not found', code: 'NOT_FOUND' });
    if (!pool) return send(res, 501, { error: 'PostgreSQL only', code: 'NOT_IMPLEMENTED' });
    const sql = recommendationSql(key.orgId, { locationId });
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(RECOMMENDATION_SETTINGS);
      const { rows } = await client.query(sql.text, sql.values);
      await client.query('COMMIT');
      send(res, 200, { data: rows });
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    } finally {
      client.release();
    }
  }
  return { recommendations };
}
