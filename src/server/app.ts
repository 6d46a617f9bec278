import type { IncomingMessage } from 'node:http';
import { createRestAdapter } from '../../rest-adapter/router.js';
import { allRoutes, areas } from '../../rest-adapter/all-routes.js';
import { describeRestApi, OPENAPI_PATH } from '../../rest-adapter/openapi.js';
import { json, methodNotAllowed } from '../../rest-adapter/errors.js';
import type { App } from '../context.js';
import { schema } from '../schema/index.js';
import { admitRequest } from './context.js';
import { clientAddress } from './client-address.js';
import { createCors } from './cors.js';
import { createGraphQLEndpoint } from './graphql-endpoint.js';
import { limitRequests, type RequestLimiter } from './rate-limit.js';
import { GRAPHIQL_ASSETS_PATH, serveGraphiQLAsset } from './graphiql-assets.js';
import { createHealth } from './health.js';
import { createIdempotency } from './idempotency.js';
import { METRICS_PATH, serveMetrics } from './metrics.js';
import { processMetrics } from '../kernel/metrics.js';
import { API_DOCS_ASSETS_PATH, API_DOCS_PATH, apiDocsPage, serveApiDocsAsset } from './api-docs.js';
import { requestLineLogger } from '../kernel/log.js';
import { type RequestNote, requestIdOf, startNote, withRequestId } from './request-log.js';

export interface ServerContext {
  req?: IncomingMessage;
}

export const clientIp = (app: App, request: Request, server?: ServerContext) =>
  clientAddress(app.config.trustProxy, request.headers.get('x-forwarded-for'), server?.req?.socket.remoteAddress);

/**
 * The whole HTTP surface as one fetch handler: /health (and /health/live, /health/ready), /graphql, /api/*. Request limits (when given) come
 * first, inside CORS, so that a browser of a listed origin can read a 429 and its Retry-After.
 */
export function createHttpHandler(app: App, requestLimiter?: RequestLimiter) {
  const idempotent = createIdempotency(app.config.idempotency);
  const graphql = createGraphQLEndpoint(app, schema, idempotent);
  const cors = createCors(app.config.corsOrigins);

  const rest = createRestAdapter({
    schema,
    routes: allRoutes,
    buildContext: (request, ip) => admitRequest(app, request, ip),
    idempotent,
  });
  const openApi = describeRestApi(schema, areas);
  const health = createHealth(app);
  const metrics = processMetrics();

  async function route(request: Request, server: ServerContext): Promise<Response> {
    const { pathname } = new URL(request.url);
    if (pathname === '/health') return json(200, { status: 'ok' });
    if (pathname === METRICS_PATH) return serveMetrics(request, app.config.metricsToken, metrics);
    if (pathname === '/health/live' || pathname === '/health/ready') {
      if (request.method !== 'GET' && request.method !== 'HEAD') return methodNotAllowed(request.method, pathname, ['GET', 'HEAD']);
      return pathname === '/health/ready' ? health.ready() : health.live();
    }
    if (pathname === '/graphql') return graphql.fetch(request, server, clientIp(app, request, server));
    if (pathname.startsWith(GRAPHIQL_ASSETS_PATH)) return serveGraphiQLAsset(request);
    if (pathname === OPENAPI_PATH) {
      if (request.method !== 'GET') return methodNotAllowed(request.method, pathname, ['GET']);
      return json(200, openApi(new URL(request.url).origin));
    }
    if (pathname === API_DOCS_PATH) {
      if (request.method !== 'GET' && request.method !== 'HEAD') return methodNotAllowed(request.method, pathname, ['GET', 'HEAD']);
      return apiDocsPage(request);
    }
    if (pathname.startsWith(API_DOCS_ASSETS_PATH)) return serveApiDocsAsset(request);
    if (pathname === '/api' || pathname.startsWith('/api/')) {
      return rest.fetch(request, clientIp(app, request, server));
    }
    return json(404, { error: `Not found: ${pathname}`, code: 'NOT_FOUND' });
  }

  /** One line per request (health probes only at debug: an orchestrator asks every few seconds). */
  function logRequest(request: Request, pathname: string, status: number, note: RequestNote, durationMs: number, ip: string) {
    const log = requestLineLogger();
    const level = status >= 500 ? 'error' : pathname.startsWith('/health') || pathname === METRICS_PATH ? 'debug' : 'info';
    if (!log.isLevelEnabled(level)) return;
    const route = note.route ?? (request as Request & { route?: string }).route;
    log[level](
      { requestId: note.requestId, method: request.method, path: pathname, route, operation: note.operation, status, durationMs: Math.round(durationMs * 10) / 10, organizationId: note.organizationId, actorType: note.actorType, actorId: note.actorId, ip },
      'request',
    );
  }

  /** A bounded name for the request: the REST route's pattern, graphql:<operation>, or the fixed paths. */
  function routeLabel(request: Request, pathname: string, note: RequestNote): string {
    const route = note.route ?? (request as Request & { route?: string }).route;
    if (route) return route;
    if (pathname === '/graphql') return `graphql:${note.operation ?? 'anonymous'}`;
    if (pathname === '/health' || pathname.startsWith('/health/') || pathname === METRICS_PATH || pathname === OPENAPI_PATH || pathname === API_DOCS_PATH) return pathname;
    if (pathname.startsWith(GRAPHIQL_ASSETS_PATH) || pathname.startsWith(API_DOCS_ASSETS_PATH)) return 'assets';
    return 'unmatched';
  }

  const limited = requestLimiter ? limitRequests(route, requestLimiter, (request, server) => clientIp(app, request, server)) : route;

  return {
    yoga: graphql.yoga,
    rest,
    health,
    async fetch(request: Request, server: ServerContext = {}): Promise<Response> {
      const started = performance.now();
      const note = startNote(request, requestIdOf(request.headers));
      const { pathname } = new URL(request.url);
      // Read now: once the answer is out, a socket the client cut has no address any more.
      const ip = clientIp(app, request, server);
      const answered = cors.preflight(request) ?? cors.decorate(request, await limited(request, server));
      const response = await withRequestId(answered, note.requestId, pathname);
      const ms = performance.now() - started;
      logRequest(request, pathname, response.status, note, ms, ip);
      metrics.request(routeLabel(request, pathname, note), request.method, response.status, ms / 1000);
      return response;
    },
  };
}
