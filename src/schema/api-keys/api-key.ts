import { apiKeyContracts } from '../../contracts/api-keys/api-key-input.js';
import { API_KEY_SCOPES } from '../../auth/permissions.js';
import { builder } from '../builder.js';
import { contractInput, parseInput } from '../contract-input.js';
import {
  countApiKeys,
  createApiKey,
  getApiKey,
  listApiKeys,
  revokeApiKey,
  rotateApiKey,
  updateApiKey,
} from '../../services/api-keys/api-keys.js';
import { NodeRef } from '../node/node-interface.js';

// Managing keys needs an administrator's session: a key must never be able to mint or widen keys.
const MANAGE = { $all: { session: true, permission: 'apikeys.manage' } } as const;

// The hashes are deliberately not exposed.
export const ApiKeyType = builder.prismaObject('ApiKey', {
  interfaces: [NodeRef],
  name: 'ApiKey',
  description: 'An API key of the organization. The secret itself is only ever returned by createApiKey and rotateApiKey.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Identifier.' }),
    name: t.exposeString('name', { description: 'Name to recognise the key by.' }),
    prefix: t.exposeString('prefix', { description: 'First characters of the current secret, to recognise it in logs.' }),
    scopes: t.exposeStringList('scopes', { description: 'Scopes granted to the key, for example inventory:read.' }),
    allowedIps: t.exposeStringList('allowedIps', { description: 'IP addresses or CIDR ranges the key may be used from; empty means any.' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: true, description: 'When the key stops working; null for never.' }),
    lastUsedAt: t.expose('lastUsedAt', { type: 'DateTime', nullable: true, description: 'When the key was last used (to the minute).' }),
    revokedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true, description: 'When the key was revoked; null while active.' }),
    previousKeyExpiresAt: t.expose('previousExpiresAt', {
      type: 'DateTime',
      nullable: true,
      description: 'After a rotation with a grace period: when the replaced secret stops working. Null otherwise.',
    }),
    createdByUserId: t.exposeID('createdByUserId', { nullable: true, description: 'User who created the key, when created by a user.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the key was created.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When the key was last changed.' }),
  }),
});

type WithSecret = Awaited<ReturnType<typeof createApiKey>>;

const ApiKeyWithSecret = builder.objectRef<WithSecret>('ApiKeyWithSecret').implement({
  description: 'A key together with its secret, returned once: store the secret now, it cannot be read again.',
  fields: (t) => ({
    apiKey: t.field({ type: ApiKeyType, description: 'The key.', resolve: (p) => p.apiKey }),
    key: t.exposeString('key', { description: 'The secret: send it as Authorization: Bearer <key> or X-API-Key.' }),
  }),
});

const contracts = apiKeyContracts(API_KEY_SCOPES);

const ApiKeyCreateInput = contractInput('ApiKeyCreateInput', contracts.create, { description: 'A new API key.' });

const ApiKeyUpdateInput = contractInput('ApiKeyUpdateInput', contracts.update, {
  description: 'Changes to a key; absent fields stay as they are, null clears allowedIps or expiresAt.',
});

const ApiKeyRotateInput = contractInput('ApiKeyRotateInput', contracts.rotate, { description: 'How to rotate a key.' });

builder.queryFields((t) => ({
  apiKeys: t.prismaConnection({
    type: 'ApiKey',
    cursor: 'id',
    description: 'The API keys of the organization, revoked ones too, newest first, as a Relay connection. Administrators only, signed in.',
    authScopes: MANAGE,
    totalCount: (_parent, _args, ctx) => countApiKeys(ctx),
    resolve: (query, _parent, _args, ctx) => listApiKeys(ctx, query),
  }),
  allApiKeys: t.prismaField({
    type: ['ApiKey'],
    description: "REST adapter's list (GET /api/admin/api-keys): every API key of the organization in one list, revoked ones too, newest first. Administrators only, signed in.",
    deprecationReason: "The REST adapter's unpaged list (GET /api/admin/api-keys); GraphQL clients use the connection `apiKeys`.",
    authScopes: MANAGE,
    resolve: (query, _parent, _args, ctx) => listApiKeys(ctx, query),
  }),
  apiKey: t.prismaField({
    type: 'ApiKey',
    description: "One API key by id (null when it is unknown or not the organization's). Administrators only, signed in.",
    orNullWhenAbsent: true,
    authScopes: MANAGE,
    args: { id: t.arg.id({ required: true, description: 'API key id.' }) },
    resolve: (query, _parent, args, ctx) => getApiKey(ctx, String(args.id), query),
  }),
}));

builder.mutationFields((t) => ({
  createApiKey: t.field({
    refusals: ['ValidationError'],
    type: ApiKeyWithSecret,
    description: 'Creates an API key and returns its secret, once. Administrators only, signed in.',
    authScopes: MANAGE,
    args: { input: t.arg({ type: ApiKeyCreateInput, required: true, description: 'The key.' }) },
    resolve: (_parent, args, ctx) => createApiKey(ctx, parseInput(contracts.create, args.input)),
  }),
  updateApiKey: t.prismaField({
    refusals: ['ValidationError', 'NotFoundError', 'ConflictError'],
    type: 'ApiKey',
    description: 'Changes the name, scopes, allowed IPs or expiry of a key that is not revoked. Administrators only, signed in.',
    authScopes: MANAGE,
    args: {
      id: t.arg.id({ required: true, description: 'API key id.' }),
      input: t.arg({ type: ApiKeyUpdateInput, required: true, description: 'The changes.' }),
    },
    resolve: (_query, _parent, args, ctx) => updateApiKey(ctx, String(args.id), parseInput(contracts.update, args.input)),
  }),
  revokeApiKey: t.prismaField({
    refusals: ['NotFoundError', 'ConflictError'],
    type: 'ApiKey',
    description: 'Revokes a key: it stops working at once, for good. Administrators only, signed in.',
    authScopes: MANAGE,
    args: { id: t.arg.id({ required: true, description: 'API key id.' }) },
    resolve: (_query, _parent, args, ctx) => revokeApiKey(ctx, String(args.id)),
  }),
  rotateApiKey: t.field({
    refusals: ['ValidationError', 'NotFoundError', 'ConflictError'],
    type: ApiKeyWithSecret,
    description: 'Gives a key a new secret, returned once; the old one stops working now or after the grace period. Administrators only, signed in.',
    authScopes: MANAGE,
    args: {
      id: t.arg.id({ required: true, description: 'API key id.' }),
      input: t.arg({ type: ApiKeyRotateInput, description: 'Options; the default rotates without a grace period.' }),
    },
    resolve: (_parent, args, ctx) => rotateApiKey(ctx, String(args.id), parseInput(contracts.rotate, args.input ?? {})),
  }),
}));
