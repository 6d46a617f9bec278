// Operator operations behind the admin CLI and the demo seed. They act outside any request, so they
// take the database rather than a request context; input is validated as strictly as over HTTP.
import type { z } from 'zod';
import { operatorApiKeyInput, organizationInput, userInput } from '../../contracts/admin/operator-inputs.js';
import { channelCreate, locationCreate } from '../../contracts/master-data/reference-inputs.js';
import { notFound, validationError } from '../../kernel/errors.js';
import { Prisma } from '../../generated/prisma/client.js';
import { apiKeyFields, insertApiKey, revokeApiKeyWhere } from '../api-keys/api-keys.js';
import { hashPassword, verifyPassword } from '../auth/secrets.js';
import { channels } from '../master-data/channels.js';
import { locations } from '../master-data/locations.js';
import { seedReasonCodes } from '../inventory/adjustments/reason-codes.js';
import { parseInput } from '../tenant.js';
import { Role } from '../../generated/prisma/enums.js';
import type { Db } from '../../db/transactions.js';

const userSchema = userInput(Object.values(Role));

// A client or an open transaction: the demo seed runs these inside one transaction.

export async function createOrganization(db: Db, input: z.input<typeof organizationInput>) {
  const data = parseInput(organizationInput, input);
  const org = await db.organization.create({ data: { ...data, industry: data.industry?.toUpperCase() ?? null } });
  await seedReasonCodes(db, org.id);
  return org;
}

export async function setOrganizationStatus(db: Db, organizationId: string, status: 'ACTIVE' | 'INACTIVE') {
  const updated = await db.organization.updateMany({ where: { id: organizationId }, data: { status } });
  if (!updated.count) throw notFound('Organization');
}

/**
 * Creates the user and adds them to the organization (with that role). A user with that email already
 * exists (in any organization): the password must be theirs, which is then kept; a different password is
 * refused, since one user's password is shared by all their organizations and the CLI does not reset it.
 */
export async function createUser(db: Db, input: z.input<typeof userSchema>) {
  const data = parseInput(userSchema, input);
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
export async function createApiKey(db: Db, input: z.input<typeof apiKeySchema>) {
  const data = parseInput(apiKeySchema, input);
  const org = await db.organization.count({ where: { id: data.organizationId } });
  if (!org) throw notFound('Organization');
  return insertApiKey(db, data);
}

export async function revokeApiKeyById(db: Db, id: string) {
  await revokeApiKeyWhere(db, { id });
}

async function checkOrganization(db: Db, organizationId: string) {
  if (!organizationId) throw validationError({ organizationId: ['Required'] });
  if (!(await db.organization.count({ where: { id: organizationId } }))) throw notFound('Organization');
}

/** A location of the organization, with the same contract and write as POST /api/inventory/locations. */
export async function createLocationFor(db: Db, { organizationId, ...fields }: { organizationId: string } & z.input<typeof locationCreate>) {
  await checkOrganization(db, organizationId);
  return locations.insert(db, organizationId, parseInput(locationCreate, fields));
}

/** A sales channel of the organization, with the same contract and write as the GraphQL createChannel. */
export async function createChannelFor(db: Db, { organizationId, ...fields }: { organizationId: string } & z.input<typeof channelCreate>) {
  await checkOrganization(db, organizationId);
  return channels.insert(db, organizationId, parseInput(channelCreate, fields));
}
