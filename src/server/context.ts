import type { App, RequestContext } from '../context.js';
import { authenticate, credentialsFrom } from '../services/auth/authenticate.js';

/** Builds the request context shared by GraphQL and REST: who is calling, scoped to one organization. */
export async function buildContext(app: App, request: Request, clientIp: string): Promise<RequestContext> {
  return buildContextFromHeaders(app, request.headers, clientIp);
}

/** The same context from bare headers: GraphQL subscriptions build theirs from the connection's parameters. */
export async function buildContextFromHeaders(app: App, headers: Headers, clientIp: string): Promise<RequestContext> {
  const auth = await authenticate(app, credentialsFrom(headers, clientIp));
  return { app, prisma: app.prisma, auth, clientIp };
}
