import type { IncomingMessage } from 'node:http';
import { createYoga } from 'graphql-yoga';
import { createRestAdapter } from '../../rest-adapter/router.js';
import { allRoutes, allSchemas } from '../../rest-adapter/all-routes.js';
import { buildOpenApi, OPENAPI_PATH } from '../../rest-adapter/openapi.js';
import { json } from '../../rest-adapter/errors.js';
import type { App } from '../context.js';
import { DomainError, ERROR_STATUS } from '../errors.js';
import { schema } from '../schema/index.js';
import { buildContext } from './context.js';
import { rateLimitedStatus } from './rate-limit.js';

export interface ServerContext {
  req?: IncomingMessage;
}

export function clientIp(app: App, request: Request, server?: ServerContext): string {
  if (app.config.trustProxy) {
    const forwarded = request.headers.get('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  return server?.req?.socket.remoteAddress ?? '127.0.0.1';
}

/** The whole HTTP surface as one fetch handler: /health, /graphql, /api/*. */
export function createHttpHandler(app: App) {
  const yoga = createYoga<ServerContext>({
    schema,
    graphqlEndpoint: '/graphql',
    graphiql: { title: 'Supply chain GraphQL', subscriptionsProtocol: 'WS' },
    landingPage: false,
    plugins: [rateLimitedStatus()],
    context: async ({ request, ...server }) => {
      try {
        return await buildContext(app, request, clientIp(app, request, server));
      } catch (error) {
        // Bad credentials fail the whole request with the same status REST gives.
        if (error instanceof DomainError) {
          error.extensions.http = { status: ERROR_STATUS[error.code] };
        }
        throw error;
      }
    },
  });

  const rest = createRestAdapter({
    schema,
    routes: allRoutes,
    buildContext: (request, ip) => buildContext(app, request, ip),
  });

  return {
    yoga,
    rest,
    async fetch(request: Request, server: ServerContext = {}): Promise<Response> {
      const { pathname } = new URL(request.url);
      if (pathname === '/health') return json(200, { status: 'ok' });
      if (pathname === '/graphql') return yoga.fetch(request, server);
      if (pathname === OPENAPI_PATH && request.method === 'GET') {
        return json(200, buildOpenApi(allRoutes, allSchemas, new URL(request.url).origin));
      }
      if (pathname === '/api' || pathname.startsWith('/api/')) {
        return rest.fetch(request, clientIp(app, request, server));
      }
      return json(404, { error: `Not found: ${pathname}`, code: 'NOT_FOUND' });
    },
  };
}
