import type { RequestContext } from '../../context.js';
import { DomainError, validationError } from '../../kernel/errors.js';
import { verifyPassword } from './secrets.js';
import { signSessionToken } from './tokens.js';

export interface SignInInput {
  email: string;
  password: string;
  organizationId?: string | null;
}

// A fixed hash to compare against when the email is unknown, so both failures take as long.
const DUMMY_HASH = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

/**
 * Starts a session. Attempts are throttled per account and per address (App.signInThrottle): a locked
 * account or address is refused before its password is looked at, whether the account exists or not,
 * and a successful sign-in starts the account's count over.
 */
export async function signIn(ctx: RequestContext, input: SignInInput) {
  const { app } = ctx;
  const details: Record<string, string[]> = {};
  if (!input.email?.trim()) details.email = ['Required'];
  if (!input.password) details.password = ['Required'];
  if (Object.keys(details).length) throw validationError(details);

  const email = input.email.trim().toLowerCase();
  const lockedFor = (await app.signInThrottle?.attempt(email, ctx.clientIp)) ?? 0;
  if (lockedFor > 0) {
    throw new DomainError('RATE_LIMITED', `Too many sign-in attempts: try again in ${lockedFor} s`, { retryAfter: lockedFor });
  }
  const user = await app.prisma.user.findUnique({
    where: { email },
    include: { memberships: { include: { organization: true }, orderBy: { createdAt: 'asc' } } },
  });
  const passwordOk = await verifyPassword(input.password, user?.passwordHash ?? DUMMY_HASH);
  if (!user || !passwordOk) throw new DomainError('INVALID_CREDENTIALS', 'Email or password is incorrect');
  await app.signInThrottle?.succeeded(email, ctx.clientIp);

  const membership = input.organizationId
    ? user.memberships.find((m) => m.organizationId === input.organizationId)
    : user.memberships[0];
  if (!membership) throw new DomainError('FORBIDDEN', 'You are not a member of this organization');
  if (membership.organization.status !== 'ACTIVE') throw new DomainError('INACTIVE_ORGANIZATION', 'Organization is not active');

  const expiresAt = new Date(Date.now() + app.config.sessionTtlSeconds * 1000);
  const session = await app.prisma.session.create({ data: { userId: user.id, expiresAt } });
  const token = await signSessionToken(app.jwtKey, { userId: user.id, sessionId: session.id, organizationId: membership.organizationId }, expiresAt);
  return {
    token,
    expiresAt,
    user: { id: user.id, email: user.email, name: user.name },
    organizationId: membership.organizationId,
    role: membership.role,
    organizations: user.memberships.map((m) => ({ id: m.organizationId, name: m.organization.name, role: m.role })),
  };
}

/** Ends the caller's session; the token stops working on every instance at once. */
export async function signOut(ctx: RequestContext): Promise<boolean> {
  if (!ctx.auth?.sessionId) return false;
  await ctx.prisma.session.update({ where: { id: ctx.auth.sessionId }, data: { revokedAt: new Date() } });
  return true;
}
