import { Response } from '@whatwg-node/fetch';
/**
 * Cross-origin access for browsers, for /graphql and /api alike. Only origins named in CORS_ORIGINS get
 * CORS headers (and with them credentials: the session cookie); `*` lets any origin call without
 * credentials. By default there are none, so browsers on other origins cannot read answers.
 */
const ALLOWED_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';
const ALLOWED_HEADERS = 'authorization, content-type, x-api-key, x-organization-id, accept, idempotency-key, x-request-id';
const EXPOSED_HEADERS = 'retry-after, ratelimit, ratelimit-policy, ratelimit-limit, ratelimit-remaining, ratelimit-reset, x-request-id, idempotent-replayed';

export interface Cors {
  /** The answer to a preflight request (OPTIONS with Access-Control-Request-Method), or null for any other request. */
  preflight(request: Request): Response | null;
  /** Adds the CORS headers a listed origin gets to a response. */
  decorate(request: Request, response: Response): Response;
}

export function createCors(origins: string[]): Cors {
  const listed = new Set(origins.filter((origin) => origin !== '*'));
  const anyOrigin = origins.includes('*');
  const headersFor = (origin: string | null): Record<string, string> | null => {
    if (!origin) return null;
    if (listed.has(origin)) return { 'access-control-allow-origin': origin, 'access-control-allow-credentials': 'true', vary: 'Origin' };
    if (anyOrigin) return { 'access-control-allow-origin': '*' };
    return null;
  };
  return {
    preflight(request) {
      if (request.method !== 'OPTIONS' || !request.headers.get('access-control-request-method')) return null;
      const headers = headersFor(request.headers.get('origin'));
      if (!headers) return new Response(null, { status: 204, headers: { vary: 'Origin' } });
      return new Response(null, {
        status: 204,
        headers: { ...headers, 'access-control-allow-methods': ALLOWED_METHODS, 'access-control-allow-headers': ALLOWED_HEADERS, 'access-control-max-age': '600' },
      });
    },
    decorate(request, response) {
      const headers = headersFor(request.headers.get('origin'));
      if (!headers) return response;
      for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
      response.headers.set('access-control-expose-headers', EXPOSED_HEADERS);
      return response;
    },
  };
}
