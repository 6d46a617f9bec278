// API keys of the caller's organization, managed by its administrators. Secrets are returned once (on
// create and rotate) and only their hash is stored; nothing here ever returns a hash.
import type { z } from 'zod';
import { apiKeyContracts } from '../../contracts/api-keys/api-key-input.js';
import type { DbContext, RequestContext } from '../../context.js';
import { DomainError, notFound } from '../../kernel/errors.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { API_KEY_SCOPES } from '../../auth/permissions.js';
import { generateApiKey } from '../auth/secrets.js';
import { authOf, orgId } from '../tenant.js';

// A client or an open transaction (the demo seed creates keys inside one).

/** Field rules shared by the admin CLI and the HTTP interface. */
export const apiKeyFields = apiKeyContracts(API_KEY_SCOPES).fields;

/** The inputs as their contracts output them (parsed once, where they come in). */
type Contracts = ReturnType<typeof apiKeyContracts>;
export type CreateApiKeyInput = z.output<Contracts['create']>;
export type UpdateApiKeyInput = z.output<Contracts['update']>;
export type RotateApiKeyInput = z.output<Contracts['rotate']>;

export interface NewApiKeyData {
  organizationId: string;
  name: string;
  scopes: string[];
  allowedIps: string[];
  expiresAt?: Date | null;
  createdByUserId?: string | null;
}

/** Stores a new key from validated fields; the secret is returned here once and only its hash is kept. */
export async function insertApiKey(ctx: DbContext, data: NewApiKeyData) {
  const secret = generateApiKey();
  const apiKey = await ctx.prisma.apiKey.create({
    data: {
      organizationId: data.organizationId,
      name: data.name,
      scopes: [...new Set(data.scopes)],
      allowedIps: data.allowedIps,
      expiresAt: data.expiresAt ?? null,
      createdByUserId: data.createdByUserId ?? null,
      prefix: secret.prefix,
      keyHash: secret.hash,
    },
  });
  return { apiKey, key: secret.key };
}

/** Revokes one key; 404 when `where` matches none, 409 when it is already revoked. */
export async function revokeApiKeyWhere(ctx: DbContext, where: { id: string; organizationId?: string }) {
  const [row] = await ctx.prisma.apiKey.updateManyAndReturn({ where: { ...where, revokedAt: null }, data: { revokedAt: new Date() } });
  if (row) return row;
  throw await missingOrRevoked(ctx, where);
}

async function missingOrRevoked(ctx: DbContext, where: { id: string; organizationId?: string }) {
  const found = await ctx.prisma.apiKey.findFirst({ where, select: { revokedAt: true } });
  if (!found) return notFound('API key');
  if (found.revokedAt) return new DomainError('INVALID_STATE', 'API key is revoked');
  return new DomainError('INVALID_STATE', 'API key changed while this request ran; retry');
}

const scoped = (ctx: RequestContext, id: string) => ({ id, organizationId: orgId(ctx) });

/** Every key of the organization (revoked ones too), newest first. */
export function listApiKeys(ctx: RequestContext, query: { select?: object; include?: object } = {}) {
  return ctx.prisma.apiKey.findMany({ ...query, where: { organizationId: orgId(ctx) }, orderBy: { id: 'desc' } });
}

export function countApiKeys(ctx: RequestContext) {
  return ctx.prisma.apiKey.count({ where: { organizationId: orgId(ctx) } });
}

export async function getApiKey(ctx: RequestContext, id: string, query: { select?: object; include?: object } = {}) {
  const row = await ctx.prisma.apiKey.findFirst({ ...query, where: scoped(ctx, id) });
  if (!row) throw notFound('API key');
  return row;
}

export async function createApiKey(ctx: RequestContext, input: CreateApiKeyInput) {
  const { actor } = authOf(ctx);
  return insertApiKey(ctx, {
    ...input,
    organizationId: orgId(ctx),
    createdByUserId: actor.type === 'user' ? actor.id : null,
  });
}

/** Changes name, scopes, allowed IPs or expiry; absent fields stay, null clears allowedIps or expiresAt. */
export async function updateApiKey(ctx: RequestContext, id: string, input: UpdateApiKeyInput) {
  const data: Prisma.ApiKeyUpdateManyMutationInput = {
    name: input.name,
    scopes: input.scopes && [...new Set(input.scopes)],
    allowedIps: input.allowedIps,
    expiresAt: input.expiresAt,
  };
  const [row] = await ctx.prisma.apiKey.updateManyAndReturn({ where: { ...scoped(ctx, id), revokedAt: null }, data });
  ctx.app.apiKeys?.clear();
  if (row) return row;
  throw await missingOrRevoked(ctx, scoped(ctx, id));
}

export async function revokeApiKey(ctx: RequestContext, id: string) {
  const revoked = await revokeApiKeyWhere(ctx, scoped(ctx, id));
  ctx.app.apiKeys?.clear();
  return revoked;
}

/**
 * Gives the key a new secret. Without a grace period the old secret stops working at once; with one it
 * keeps working until previousKeyExpiresAt (only the secret replaced last: an earlier one stops now).
 */
export async function rotateApiKey(ctx: RequestContext, id: string, { gracePeriodSeconds }: RotateApiKeyInput) {
  const current = await ctx.prisma.apiKey.findFirst({ where: scoped(ctx, id), select: { keyHash: true, revokedAt: true } });
  if (!current) throw notFound('API key');
  if (current.revokedAt) throw new DomainError('INVALID_STATE', 'API key is revoked');
  const secret = generateApiKey();
  const grace = gracePeriodSeconds ? new Date(Date.now() + gracePeriodSeconds * 1000) : null;
  // Matching the hash read above makes a concurrent rotation fail instead of being overwritten.
  const [row] = await ctx.prisma.apiKey.updateManyAndReturn({
    where: { ...scoped(ctx, id), keyHash: current.keyHash, revokedAt: null },
    data: {
      prefix: secret.prefix,
      keyHash: secret.hash,
      previousKeyHash: grace ? current.keyHash : null,
      previousExpiresAt: grace,
    },
  });
  ctx.app.apiKeys?.clear();
  if (!row) throw await missingOrRevoked(ctx, scoped(ctx, id));
  return { apiKey: row, key: secret.key };
}
