import type { App, AuthInfo } from '../../context.js';
import { DomainError } from '../../kernel/errors.js';
import type { ApiKeyRow } from '../../auth/api-key-cache.js';
import type { Credentials } from '../../auth/credentials.js';
import { ipAllowed } from '../../kernel/ip-allow.js';
import { type Permission, permissionsForRole, permissionsForScopes } from '../../auth/permissions.js';
import { hashApiKey, sameHash } from './secrets.js';
import { looksLikeJwt, verifySessionToken } from './tokens.js';


function checkOrganization(org: AuthInfo['organization'], requested?: string) {
  if (requested && requested !== org.id) {
    throw new DomainError('FORBIDDEN', 'The credentials do not belong to the organization in X-Organization-Id');
  }
  if (org.status !== 'ACTIVE') throw new DomainError('INACTIVE_ORGANIZATION', 'Organization is not active');
}

/**
 * Who is calling, or null when no credentials came with the request.
 * Throws the documented 401/403 errors for credentials that are present but not good.
 */
export async function authenticate(app: App, credentials: Credentials): Promise<AuthInfo | null> {
  const { token } = credentials;
  if (!token) return null;
  return looksLikeJwt(token) ? authenticateSession(app, token, credentials) : authenticateApiKey(app, token, credentials);
}

async function authenticateApiKey(app: App, key: string, { clientIp, organizationId }: Credentials): Promise<AuthInfo> {
  const hash = hashApiKey(key);
  const now = new Date();
  const row = app.apiKeys?.get(hash, now.getTime()) ?? (await lookUpApiKey(app, hash, now));
  if (!row || !sameHash(row.keyHash === hash ? row.keyHash : (row.previousKeyHash ?? ''), hash)) {
    throw new DomainError('INVALID_API_KEY', 'API key not found or invalid');
  }
  const organization = { id: row.orgId, name: row.orgName, status: row.orgStatus, industry: row.orgIndustry, capabilities: row.orgCapabilities };
  if (row.revokedAt) throw new DomainError('REVOKED_API_KEY', 'API key has been revoked');
  if (row.expiresAt && row.expiresAt <= now) throw new DomainError('EXPIRED_API_KEY', 'API key has expired');
  // The lookup checked the grace period too, but a cached row may outlive it.
  if (row.previousKeyHash === hash && row.keyHash !== hash && !(row.previousExpiresAt && row.previousExpiresAt > now)) {
    throw new DomainError('INVALID_API_KEY', 'API key not found or invalid');
  }
  if (row.allowedIps.length && !ipAllowed(clientIp, row.allowedIps)) {
    throw new DomainError('IP_RESTRICTION', 'API key is not allowed from this IP address');
  }
  checkOrganization(organization, organizationId);
  // One write a minute at most per key keeps lastUsedAt useful without a write on every request.
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > 60_000) {
    row.lastUsedAt = now;
    app.prisma.apiKey.update({ where: { id: row.id }, data: { lastUsedAt: now } }).catch(() => {});
  }
  return {
    organization,
    actor: { type: 'apiKey', id: row.id, scopes: row.scopes },
    permissions: permissionsOfKey(row.scopes),
    expiresAt: earliest(row.expiresAt, row.keyHash === hash ? null : row.previousExpiresAt),
  };
}

// A cached key row keeps its scopes array (a changed key is a new row), so its permissions are worked out once, not
// per request: a Set of every permission for `*`, which every request of such a key built anew.
const keyPermissions = new WeakMap<readonly string[], ReadonlySet<Permission>>();

function permissionsOfKey(scopes: readonly string[]): ReadonlySet<Permission> {
  let permissions = keyPermissions.get(scopes);
  if (!permissions) keyPermissions.set(scopes, (permissions = permissionsForScopes(scopes)));
  return permissions;
}

const earliest = (...dates: (Date | null)[]) =>
  dates.reduce<Date | undefined>((first, date) => (date && (!first || date < first) ? date : first), undefined);

/** The key with this hash (current, or previous within its grace period) and its organization. */
async function lookUpApiKey(app: App, hash: string, now: Date): Promise<ApiKeyRow | undefined> {
  // One round trip for the key and its organization.
  const [row] = await app.prisma.$queryRaw<ApiKeyRow[]>`
    SELECT k.id, k."keyHash", k."previousKeyHash", k."previousExpiresAt", k.scopes, k."allowedIps", k."expiresAt", k."revokedAt", k."lastUsedAt",
           o.id AS "orgId", o.name AS "orgName", o.status::text AS "orgStatus", o.industry AS "orgIndustry", o.capabilities AS "orgCapabilities"
    FROM api_keys k JOIN organizations o ON o.id = k."organizationId"
    WHERE k."keyHash" = ${hash} OR (k."previousKeyHash" = ${hash} AND k."previousExpiresAt" > ${now})
    LIMIT 1`;
  if (row) app.apiKeys?.set(hash, row, now.getTime());
  return row;
}

async function authenticateSession(app: App, token: string, { organizationId }: Credentials): Promise<AuthInfo> {
  const claims = await verifySessionToken(app.jwtKey, token);
  if (!claims) throw new DomainError('INVALID_TOKEN', 'Session token is invalid or expired');
  const session = await app.prisma.session.findUnique({
    where: { id: claims.sessionId },
    include: {
      user: {
        include: {
          memberships: { where: { organizationId: organizationId ?? claims.organizationId }, include: { organization: true } },
        },
      },
    },
  });
  if (!session || session.userId !== claims.userId || session.revokedAt || session.expiresAt <= new Date()) {
    throw new DomainError('INVALID_TOKEN', 'Session has ended; sign in again');
  }
  const membership = session.user.memberships[0];
  if (!membership) throw new DomainError('FORBIDDEN', 'You are not a member of this organization');
  checkOrganization(membership.organization);
  return {
    organization: membership.organization,
    actor: { type: 'user', id: session.userId, role: membership.role },
    permissions: permissionsForRole(membership.role),
    sessionId: session.id,
    expiresAt: session.expiresAt,
  };
}
