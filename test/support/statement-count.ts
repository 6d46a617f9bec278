import type { TestServer } from './server.js';

// The statement that authenticates an API key (src/services/auth/authenticate.ts, lookUpApiKey).
const API_KEY_LOOKUP = /FROM api_keys k JOIN organizations o ON o\.id = k\."organizationId"/;

export interface Counted<T> {
  /** SQL statements the operation ran, without the API key lookup. */
  statements: number;
  /** Their SQL, to show when a count is off. */
  sql: string[];
  result: T;
}

/**
 * Runs one GraphQL operation or REST call (`run`) and counts the SQL statements the server ran for it.
 *
 * Deterministic whatever the timing: the API key lookup is the one statement whose presence depends on the
 * clock (a cached key lookup expires after API_KEY_CACHE_SECONDS, possibly between two counted calls on a
 * busy machine). So the helper empties the key cache first, making the lookup run on every call, and leaves
 * it out of the count by its SQL; it throws when an API-key call ran no such lookup, so a changed lookup
 * cannot silently start being counted. The lastUsedAt bookkeeping write is left out by the test database
 * (test/support/database.ts). Session tokens have no cache: their lookup is always counted.
 * Count one call at a time: statements of anything else the server runs meanwhile would be counted too.
 */
export async function countStatements<T>(server: TestServer, run: () => Promise<T>, options: { apiKey?: boolean } = {}): Promise<Counted<T>> {
  server.app.apiKeys?.clear();
  server.queries.length = 0;
  const result = await run();
  const all = [...server.queries];
  const sql = all.filter((statement) => !API_KEY_LOOKUP.test(statement));
  if ((options.apiKey ?? true) && sql.length === all.length) {
    throw new Error('countStatements: no API key lookup was seen; update API_KEY_LOOKUP (or pass { apiKey: false } for a session token)');
  }
  return { statements: sql.length, sql, result };
}
