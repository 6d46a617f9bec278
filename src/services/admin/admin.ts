// Operator operations behind the admin CLI and the demo seed. They act outside any request, so they
// take the database rather than a request context; input is validated as strictly as over HTTP.
import { z } from 'zod';
import type { Db } from '../../db/database.js';
import { DomainError, notFound } from '../../errors.js';
import { Role } from '../../generated/prisma/enums.js';
import { invalidIpEntries } from '../auth/ip-allow.js';
import { API_KEY_SCOPES } from '../auth/permissions.js';
import { generateApiKey, hashPassword } from '../auth/secrets.js';
import { parseInput } from '../tenant.js';

const orgSchema = z.object({
  name: z.string().trim().min(1, 'Required').max(200),
  capabilities: z.array(z.string().trim().min(1)).default([]),
  industry: z.string().trim().min(1).max(100).nullish(),
});

export async function createOrganization(db: Db, input: z.input<typeof orgSchema>) {
  const data = parseInput(orgSchema, input);
  return db.organization.create({ data: { ...data, industry: data.industry?.toUpperCase() ?? null } });
}

export async function setOrganizationStatus(db: Db, organizationId: string, status: 'ACTIVE' | 'INACTIVE') {
  const updated = await db.organization.updateMany({ where: { id: organizationId }, data: { status } });
  if (!updated.count) throw notFound('Organization');
}

const userSchema = z.object({
  organizationId: z.string().min(1),
  email: z.string().trim().toLowerCase().email('Must be an email address'),
  password: z.string().min(8, 'At least 8 characters'),
  role: z.enum(Object.values(Role) as [Role, ...Role[]]),
  name: z.string().trim().max(200).nullish(),
});

/** Creates the user (or finds one with that email and the same password) and adds them to the organization. */
export async function createUser(db: Db, input: z.input<typeof userSchema>) {
  const data = parseInput(userSchema, input);
  const org = await db.organization.count({ where: { id: data.organizationId } });
  if (!org) throw notFound('Organization');
  const existing = await db.user.findUnique({ where: { email: data.email } });
  const user = existing ?? (await db.user.create({ data: { email: data.email, name: data.name ?? null, passwordHash: await hashPassword(data.password) } }));
  await db.membership.upsert({
    where: { userId_organizationId: { userId: user.id, organizationId: data.organizationId } },
    create: { userId: user.id, organizationId: data.organizationId, role: data.role },
    update: { role: data.role },
  });
  return user;
}

export const apiKeyFields = {
  name: z.string().trim().min(1, 'Required').max(200),
  scopes: z
    .array(z.string())
    .min(1, 'At least one scope')
    .refine((s) => s.every((x) => API_KEY_SCOPES.includes(x)), `Unknown scope; known scopes: ${API_KEY_SCOPES.join(', ')}`),
  allowedIps: z
    .array(z.string().trim())
    .default([])
    .refine((ips) => invalidIpEntries(ips).length === 0, 'Each entry must be an IP address or CIDR range'),
  expiresAt: z.coerce.date().nullish(),
};
const apiKeySchema = z.object({ organizationId: z.string().min(1), ...apiKeyFields, createdByUserId: z.string().nullish() });

/** Creates an API key; the secret is returned here once and only its hash is stored. */
export async function createApiKey(db: Db, input: z.input<typeof apiKeySchema>) {
  const data = parseInput(apiKeySchema, input);
  const org = await db.organization.count({ where: { id: data.organizationId } });
  if (!org) throw notFound('Organization');
  const secret = generateApiKey();
  const row = await db.apiKey.create({
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
  return { apiKey: row, key: secret.key };
}

export async function revokeApiKeyById(db: Db, id: string) {
  const updated = await db.apiKey.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: new Date() } });
  if (!updated.count) {
    if (!(await db.apiKey.count({ where: { id } }))) throw notFound('API key');
    throw new DomainError('INVALID_STATE', 'API key is already revoked');
  }
}

const locationSchema = z.object({
  organizationId: z.string().min(1),
  code: z.string().trim().min(1, 'Required').max(50),
  name: z.string().trim().min(1, 'Required').max(200),
  type: z.string().trim().min(1).max(50).optional(),
});

export async function createLocationFor(db: Db, input: z.input<typeof locationSchema>) {
  const data = parseInput(locationSchema, input);
  if (!(await db.organization.count({ where: { id: data.organizationId } }))) throw notFound('Organization');
  return db.location.create({ data });
}

const channelSchema = z.object({
  organizationId: z.string().min(1),
  name: z.string().trim().min(1, 'Required').max(200),
  type: z.string().trim().min(1).max(50).optional(),
});

export async function createChannelFor(db: Db, input: z.input<typeof channelSchema>) {
  const data = parseInput(channelSchema, input);
  if (!(await db.organization.count({ where: { id: data.organizationId } }))) throw notFound('Organization');
  return db.channel.create({ data });
}
