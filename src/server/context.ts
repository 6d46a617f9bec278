import type { App, RequestContext } from '../context.js';
import { credentialSource, credentialsFrom } from '../auth/credentials.js';
import { authenticate } from '../services/auth/authenticate.js';
import { checkCookieRequest } from './csrf.js';
import { noteCaller } from './request-log.js';

/** Builds the request context shared by GraphQL and REST: who is calling, scoped to one organization. */
export async function buildContext(app: App, request: Request, clientIp: string): Promise<RequestContext> {
  return buildContextFromHeaders(app, request.headers, clientIp);
}

/**
 * The context of an HTTP request to /graphql or /api, refused before anything else is read when its
 * credentials are bad, or when it rides on the session cookie from another site (csrf.ts).
 */
export async function admitRequest(app: App, request: Request, clientIp: string): Promise<RequestContext> {
  const context = await buildContext(app, request, clientIp);
  noteCaller(request, context);
  if (credentialSource(request.headers) === 'cookie') checkCookieRequest(request, app.config.corsOrigins);
  return context;
}

/** The same context from bare headers: GraphQL subscriptions build theirs from the connection's parameters. */
export async function buildContextFromHeaders(app: App, headers: Headers, clientIp: string): Promise<RequestContext> {
  const auth = await authenticate(app, credentialsFrom(headers, clientIp));
  return { app, prisma: app.prisma, auth, clientIp };
}
