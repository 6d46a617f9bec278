import { DomainError } from '../kernel/errors.js';
import { saysJson } from '../kernel/request-body.js';

/**
 * Why a request riding on the session cookie alone comes from another site, or null when it does not.
 * The browser's own mark wins over the Origin: `Sec-Fetch-Site: cross-site` is always refused (an Origin
 * header naming this server does not make it same-site; only the browser knows where the request came
 * from), `same-site` (a sibling subdomain) only when its Origin is this server or a CORS_ORIGINS entry.
 * Without the mark (older browsers, other clients), an Origin that is neither is refused. /graphql, /api
 * and the graphql-ws upgrade all decide here.
 */
export function crossSiteRefusal(headers: Headers, host: string, allowedOrigins: readonly string[]): DomainError | null {
  const origin = headers.get('origin');
  const site = headers.get('sec-fetch-site')?.trim().toLowerCase();
  const trusted = origin !== null && origin !== 'null' && (sameHost(origin, host) || allowedOrigins.includes(origin));
  if (site === 'cross-site' || (site === 'same-site' && !trusted)) {
    return new DomainError('CSRF_REJECTED', 'A cross-site request may not use the session cookie: send an API key or a bearer token, or list the origin in CORS_ORIGINS', {
      ...(origin ? { origin } : {}),
    });
  }
  if (origin !== null && !trusted) {
    return new DomainError('CSRF_REJECTED', 'A request from another origin may not use the session cookie: send an API key or a bearer token, or list the origin in CORS_ORIGINS', { origin });
  }
  return null;
}

/**
 * Cross-site request forgery defence for requests authenticated by the session cookie, the one
 * credential a browser sends by itself. Such a request is refused when it comes from another site
 * (crossSiteRefusal), and, when it writes or is a GraphQL POST, unless its body says `application/json`:
 * a form or a `text/plain` body (what another page can send without a preflight) is never taken as JSON.
 * API keys and bearer tokens are not sent by browsers on their own, so they pass unchecked.
 */
export function checkCookieRequest(request: Request, allowedOrigins: readonly string[]): void {
  const refusal = crossSiteRefusal(request.headers, request.headers.get('host') ?? new URL(request.url).host, allowedOrigins);
  if (refusal) throw refusal;
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
