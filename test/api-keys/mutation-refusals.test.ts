import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe } from 'vitest';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { itProvokesEachRefusal, runMutation } from '../support/mutation-refusals.js';
import { startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;
let a: Tenant;
let b: Tenant;
let revokedId: string;
let theirKeyId: string;
let adminToken: string;
beforeAll(async () => {
  server = await startTestServer();
  a = await createTenant(server.app.prisma);
  b = await createTenant(server.app.prisma);
  const keys = await server.app.prisma.apiKey.findMany({ where: { organizationId: { in: [a.org.id, b.org.id] } } });
  const signedIn = await server.call('POST', '/api/auth/sign-in', { body: { email: a.admin.email, password: a.admin.password } });
  adminToken = signedIn.body.token;
  theirKeyId = keys.find((k) => k.organizationId === b.org.id)!.id;
  await a.keyWith(['inventory:read']);
  revokedId = (await server.app.prisma.apiKey.findFirstOrThrow({ where: { organizationId: a.org.id, name: 'inventory:read' } })).id;
  await server.app.prisma.apiKey.update({ where: { id: revokedId }, data: { revokedAt: new Date() } });
});
afterAll(() => server?.close());

const run = (name: string, args: Record<string, unknown> = {}, token: string | undefined = adminToken) => runMutation(server, token, name, args);

describe('refusals of sign-in and API-key mutations', () => {
  itProvokesEachRefusal({
    signIn: {
      ValidationError: ['VALIDATION_ERROR', () => run('signIn', { email: ' ', password: '' }, undefined)],
    },
    createApiKey: {
      ValidationError: ['VALIDATION_ERROR', () => run('createApiKey', { input: { name: 'x', scopes: ['no:such'] } })],
    },
    updateApiKey: {
      ValidationError: ['VALIDATION_ERROR', () => run('updateApiKey', { id: revokedId, input: { name: ' ' } })],
      NotFoundError: ['NOT_FOUND', () => run('updateApiKey', { id: theirKeyId, input: { name: 'mine now' } })],
      ConflictError: ['INVALID_STATE', () => run('updateApiKey', { id: revokedId, input: { name: 'again' } })],
    },
    revokeApiKey: {
      NotFoundError: ['NOT_FOUND', () => run('revokeApiKey', { id: randomUUID() })],
      ConflictError: ['INVALID_STATE', () => run('revokeApiKey', { id: revokedId })],
    },
    rotateApiKey: {
      ValidationError: ['VALIDATION_ERROR', () => run('rotateApiKey', { id: revokedId, input: { gracePeriodSeconds: -1 } })],
      NotFoundError: ['NOT_FOUND', () => run('rotateApiKey', { id: theirKeyId })],
      ConflictError: ['INVALID_STATE', () => run('rotateApiKey', { id: revokedId })],
    },
  });
});
