// Operator operations behind the admin CLI, the demo seed and test set-up. They act outside any request
// and organization, so they take an operator's context (operatorContext in src/context.ts; a request's
// would do too); input is validated as strictly as over HTTP.
import type { z } from 'zod';
import { operatorApiKeyInput, organizationInput, organizationSettingsInput, userInput } from '../../contracts/admin/operator-inputs.js';
import { channelCreate, locationCreate } from '../../contracts/master-data/reference-inputs.js';
import { notFound, validationError } from '../../kernel/errors.js';
import { apiKeyFields, insertApiKey, revokeApiKeyWhere } from '../api-keys/api-keys.js';
import { hashPassword, verifyPassword } from '../auth/secrets.js';
import { channels } from '../master-data/channels.js';
import { locations } from '../master-data/locations.js';
import { seedReasonCodes } from '../inventory/adjustments/reason-codes.js';
import { parseInput } from '../tenant.js';
import { Role } from '../../generated/prisma/enums.js';
import type { DbContext } from '../../context.js';
import { inTransaction } from '../../db/transactions.js';

const userSchema = userInput(Object.values(Role));

/** The organization with its reason codes, together or not at all. */
export async function createOrganization(ctx: DbContext, input: z.input<typeof organizationInput>) {
  const data = parseInput(organizationInput, input);
  return inTransaction(ctx, async (txCtx) => {
    const org = await txCtx.prisma.organization.create({ data: { ...data, industry: data.industry?.toUpperCase() ?? null } });
    await seedReasonCodes(txCtx, org.id);
    return org;
  });
}

export async function setOrganizationStatus({ prisma: db }: DbContext, organizationId: string, status: 'ACTIVE' | 'INACTIVE') {
  const updated = await db.organization.updateMany({ where: { id: organizationId }, data: { status } });
  if (!updated.count) throw notFound('Organization');
}

/** Changes an organization's settings (today its minimum remaining shelf life for picks). */
export async function setOrganizationSettings({ prisma: db }: DbContext, input: z.input<typeof organizationSettingsInput>) {
  const { organizationId, ...data } = parseInput(organizationSettingsInput, input);
  const updated = await db.organization.updateMany({ where: { id: organizationId }, data });
  if (!updated.count) throw notFound('Organization');
}

/**
 * Creates the user and adds them to the organization (with that role). A user with that email already
 * exists (in any organization): the password must be theirs, which is then kept; a different password is
 * refused, since one user's password is shared by all their organizations and the CLI does not reset it.
 */
export async function createUser(ctx: DbContext, input: z.input<typeof userSchema>) {
  const data = parseInput(userSchema, input);
  const db = ctx.prisma;
  const org = await db.organization.count({ where: { id: data.organizationId } });
  if (!org) throw notFound('Organization');
  const existing = await db.user.findUnique({ where: { email: data.email } });
  if (existing && !(await verifyPassword(data.password, existing.passwordHash))) {
    throw validationError(
      { password: ['A user with this email already exists and this is not their password; the CLI does not change passwords'] },
      'A user with this email already exists',
    );
  }
  const user = existing ?? (await db.user.create({ data: { email: data.email, name: data.name ?? null, passwordHash: await hashPassword(data.password) } }));
  await db.membership.upsert({
    where: { userId_organizationId: { userId: user.id, organizationId: data.organizationId } },
    create: { userId: user.id, organizationId: data.organizationId, role: data.role },
    update: { role: data.role },
  });
  return user;
}

const apiKeySchema = operatorApiKeyInput(apiKeyFields);

/** Creates an API key; the secret is returned here once and only its hash is stored. */
export async function createApiKey(ctx: DbContext, input: z.input<typeof apiKeySchema>) {
  const data = parseInput(apiKeySchema, input);
  const db = ctx.prisma;
  const org = await db.organization.count({ where: { id: data.organizationId } });
  if (!org) throw notFound('Organization');
  return insertApiKey(ctx, data);
}

export async function revokeApiKeyById(ctx: DbContext, id: string) {
  await revokeApiKeyWhere(ctx, { id });
}

async function checkOrganization({ prisma: db }: DbContext, organizationId: string) {
  if (!organizationId) throw validationError({ organizationId: ['Required'] });
  if (!(await db.organization.count({ where: { id: organizationId } }))) throw notFound('Organization');
}

/** A location of the organization, with the same contract and write as POST /api/inventory/locations. */
export async function createLocationFor(ctx: DbContext, { organizationId, ...fields }: { organizationId: string } & z.input<typeof locationCreate>) {
  await checkOrganization(ctx, organizationId);
  return locations.insert(ctx, organizationId, parseInput(locationCreate, fields));
}

/** A sales channel of the organization, with the same contract and write as the GraphQL createChannel. */
export async function createChannelFor(ctx: DbContext, { organizationId, ...fields }: { organizationId: string } & z.input<typeof channelCreate>) {
  await checkOrganization(ctx, organizationId);
  return channels.insert(ctx, organizationId, parseInput(channelCreate, fields));
}
