import type { IncomingMessage } from 'node:http';
import type { WebSocket } from 'ws';
import type { App, RequestContext } from '../context.js';
import { DomainError, ERROR_STATUS } from '../kernel/errors.js';
import { clientAddress } from './client-address.js';
import { buildContextFromHeaders } from './context.js';
import { crossSiteRefusal } from './csrf.js';

/** What a graphql-ws connection authenticates with, kept for as long as the socket is open. */
export interface SocketCredentials {
  headers: Headers;
  clientIp: string;
  /** Why the upgrade's session cookie was left out: a connection with no other credential is refused with it. */
  cookieRefusal?: DomainError;
}

/**
 * The headers a connection authenticates with: its connectionParams (`authorization: 'Bearer …'`,
 * `apiKey`, `organizationId`) over the upgrade request's own headers. A browser's session cookie counts
 * only when the upgrade is not cross-site by the rule of /graphql and /api (csrf.ts), so another site
 * cannot subscribe as its visitor.
 */
function connectionHeaders(request: IncomingMessage, params: Record<string, unknown> | undefined, allowedOrigins: readonly string[]) {
  const headers = new Headers();
  const { authorization, cookie, origin, host } = request.headers;
  if (authorization) headers.set('authorization', authorization);
  const site = new Headers();
  if (origin) site.set('origin', origin);
  const fetchSite = request.headers['sec-fetch-site'];
  if (typeof fetchSite === 'string') site.set('sec-fetch-site', fetchSite);
  const cookieRefusal = cookie ? (crossSiteRefusal(site, host ?? '', allowedOrigins) ?? undefined) : undefined;
  if (cookie && !cookieRefusal) headers.set('cookie', cookie);
  const param = (...names: string[]) => {
    for (const name of names) {
      const value = params?.[name];
      if (typeof value === 'string' && value.trim()) return value;
    }
    return undefined;
  };
  const bearer = param('authorization', 'Authorization');
  if (bearer) headers.set('authorization', bearer);
  const apiKey = param('apiKey', 'x-api-key', 'X-API-Key');
  if (apiKey) {
    headers.set('x-api-key', apiKey);
    if (!bearer) headers.delete('authorization');
  }
  const organizationId = param('organizationId', 'x-organization-id', 'X-Organization-Id');
  if (organizationId) headers.set('x-organization-id', organizationId);
  return { headers, cookieRefusal };
}

export function socketCredentials(app: App, request: IncomingMessage, params: Record<string, unknown> | undefined): SocketCredentials {
  return {
    ...connectionHeaders(request, params, app.config.corsOrigins),
    clientIp: clientAddress(app.config.trustProxy, String(request.headers['x-forwarded-for'] ?? ''), request.socket.remoteAddress),
  };
}

/** The same identity as a request with these credentials gets over HTTP; throws its 401/403 DomainError. */
export async function authenticateSocket(app: App, credentials: SocketCredentials): Promise<RequestContext> {
  const context = await buildContextFromHeaders(app, credentials.headers, credentials.clientIp);
  if (!context.auth && credentials.cookieRefusal) throw credentials.cookieRefusal;
  if (!context.auth) throw new DomainError('MISSING_AUTHORIZATION', 'Authentication required: send connectionParams {authorization: "Bearer <API key or token>"}');
  return context;
}

/** Closes with 4000 + the HTTP status the same credentials get (4401, 4403) and the code and message as reason. */
export function closeForCredentials(socket: WebSocket, error: DomainError) {
  const status = ERROR_STATUS[error.code] ?? 401;
  // A close reason is at most 123 bytes.
  socket.close(4000 + status, Buffer.from(`${error.code}: ${error.message}`).subarray(0, 123).toString());
}
