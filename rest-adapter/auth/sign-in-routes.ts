import type { RequestContext } from '../../src/context.js';
import { SESSION_COOKIE } from '../../src/auth/credentials.js';
import { jsonContent, responses } from '../openapi-common.js';
import { session, signedOut } from './sign-in-responses.js';
import { signInBody } from '../../src/contracts/auth/sign-in.js';
import { defineRoutes } from '../route.js';

function sessionCookie(ctx: RequestContext, value: string, maxAgeSeconds: number) {
  const secure = ctx.app.config.secureCookies ? '; Secure' : '';
  return `${SESSION_COOKIE}=${encodeURIComponent(value)}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure}`;
}

export const authRoutes = defineRoutes([
  {
    method: 'POST',
    path: '/api/auth/sign-in',
    operation: `mutation ($email: String!, $password: String!, $organizationId: ID) {
      signIn(email: $email, password: $password, organizationId: $organizationId) {
        token expiresAt user { id: userId email name } organizationId role organizations { id: organizationId name role }
      }
    }`,
    input: { body: signInBody },
    variables: ({ body }) => body as Record<string, unknown>,
    result: (data) => data.signIn,
    headers: (data, ctx) => ({
      'set-cookie': sessionCookie(ctx, data.signIn.token, Math.max(0, Math.floor((Date.parse(data.signIn.expiresAt) - Date.now()) / 1000))),
    }),
    doc: {
      operationId: 'signIn',
      summary: 'Sign in with email and password',
      description:
        'Attempts are counted per account and per client address; past the limits (docs/limits.md) the account or ' +
        'address is locked for a while and every attempt, the right password included, is answered 429 RATE_LIMITED with Retry-After.',
      tags: ['Authentication'],
      security: [],
      responses: responses({ 200: { description: 'A new session', ...jsonContent(session) } }, [400, 401, 403]),
    },
  },
  {
    method: 'POST',
    path: '/api/auth/sign-out',
    operation: 'mutation { signOut }',
    result: (data) => ({ success: data.signOut }),
    headers: (_data, ctx) => ({ 'set-cookie': sessionCookie(ctx, '', 0) }),
    doc: {
      operationId: 'signOut',
      summary: 'End the current session',
      tags: ['Authentication'],
      responses: responses(
        { 200: { description: 'Signed out', ...jsonContent(signedOut) } },
        [401],
      ),
    },
  },
]);
