import type { IncomingMessage, Server } from 'node:http';
import type { GraphQLSchema } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer, type WebSocket } from 'ws';
import type { App, RequestContext } from '../context.js';
import { DomainError, ERROR_STATUS } from '../errors.js';
import { buildContextFromHeaders } from './context.js';

type Extra = {
  socket: WebSocket;
  request: IncomingMessage;
  context?: RequestContext;
};

/**
 * The headers a connection authenticates with: its connectionParams (`authorization: 'Bearer …'`,
 * `apiKey`, `organizationId`) over the upgrade request's own headers. A browser's session cookie counts
 * only from a page of this server's own origin, so another site cannot subscribe as its visitor.
 */
function connectionHeaders(request: IncomingMessage, params: Record<string, unknown> | undefined): Headers {
  const headers = new Headers();
  const { authorization, cookie, origin, host } = request.headers;
  if (authorization) headers.set('authorization', authorization);
  const sameOrigin = !origin || (() => {
    try {
      return new URL(origin).host === host;
    } catch {
      return false;
    }
  })();
  if (cookie && sameOrigin) headers.set('cookie', cookie);
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
  return headers;
}

function clientIp(app: App, request: IncomingMessage): string {
  if (app.config.trustProxy) {
    const forwarded = String(request.headers['x-forwarded-for'] ?? '').split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  return request.socket.remoteAddress ?? '127.0.0.1';
}

/**
 * GraphQL subscriptions over graphql-ws on the HTTP server's /graphql path. The caller authenticates
 * once, in connection_init; bad credentials close the connection with 4000 + the HTTP status the same
 * credentials get over HTTP (4401, 4403) and the error's code and message as the reason.
 */
export function serveSubscriptions(app: App, server: Server, schema: GraphQLSchema) {
  const wss = new WebSocketServer({ server, path: '/graphql' });
  const graphqlWs = useServer<Record<string, unknown> | undefined, Extra>(
    {
      schema,
      context: (ctx) => ctx.extra.context!,
      onConnect: async (ctx) => {
        const { socket, request } = ctx.extra;
        try {
          const context = await buildContextFromHeaders(app, connectionHeaders(request, ctx.connectionParams), clientIp(app, request));
          if (!context.auth) throw new DomainError('MISSING_AUTHORIZATION', 'Authentication required: send connectionParams {authorization: "Bearer <API key or token>"}');
          ctx.extra.context = context;
          return true;
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          const status = ERROR_STATUS[error.code] ?? 401;
          // A close reason is at most 123 bytes.
          socket.close(4000 + status, Buffer.from(`${error.code}: ${error.message}`).subarray(0, 123).toString());
          return false;
        }
      },
    },
    wss,
  );
  return {
    async close() {
      // Clients get a 1001 close; any that does not answer the closing handshake soon is cut off.
      const cutOff = setTimeout(() => wss.clients.forEach((client) => client.terminate()), 1000);
      await graphqlWs.dispose();
      clearTimeout(cutOff);
    },
  };
}
