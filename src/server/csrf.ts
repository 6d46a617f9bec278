import { DomainError } from '../kernel/errors.js';
import { saysJson } from '../kernel/request-body.js';

/**
 * Cross-site request forgery defence for requests authenticated by the session cookie, the one
 * credential a browser sends by itself. Such a request is refused when it comes from another site
 * (its Origin is neither this server nor a CORS_ORIGINS entry, or the browser marks it cross-site),
 * and, when it writes or is a GraphQL POST, unless its body says `application/json`: a form or a
 * `text/plain` body (what another page can send without a preflight) is never taken as JSON.
 * API keys and bearer tokens are not sent by browsers on their own, so they pass unchecked.
 */
export function checkCookieRequest(request: Request, allowedOrigins: readonly string[]): void {
  const origin = request.headers.get('origin');
  const host = request.headers.get('host') ?? new URL(request.url).host;
  if (origin === 'null' || (origin && !sameHost(origin, host) && !allowedOrigins.includes(origin))) {
    throw new DomainError('CSRF_REJECTED', 'A request from another origin may not use the session cookie: send an API key or a bearer token, or list the origin in CORS_ORIGINS', { origin });
  }
  if (!origin && request.headers.get('sec-fetch-site') === 'cross-site') {
    throw new DomainError('CSRF_REJECTED', 'A cross-site request may not use the session cookie: send an API key or a bearer token');
  }
  const writes = !['GET', 'HEAD', 'OPTIONS'].includes(request.method);
  if (writes && request.body && !saysJson(request)) {
    throw new DomainError('UNSUPPORTED_MEDIA_TYPE', 'With the session cookie, a request body must be sent as Content-Type: application/json');
  }
}

function sameHost(origin: string, host: string): boolean {
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}
