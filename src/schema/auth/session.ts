import { builder } from '../builder.js';
import { signIn, signOut } from '../../services/auth/sessions.js';
import { Role } from '../../generated/prisma/enums.js';
import type { AuthInfo } from '../../context.js';

const RoleEnum = builder.enumType(Role, { name: 'Role', description: 'Role of a user in an organization.' });

const SignedInUser = builder.objectRef<{ id: string; email: string; name: string | null }>('SignedInUser').implement({
  description: 'The user who signed in.',
  fields: (t) => ({
    userId: t.exposeID('id', { description: 'User id (users are not Node entities: no other type carries this id).' }),
    email: t.exposeString('email', { description: 'Email address.' }),
    name: t.exposeString('name', { nullable: true, description: 'Display name.' }),
  }),
});

const OrganizationMembership = builder.objectRef<{ id: string; name: string; role: Role }>('OrganizationMembership').implement({
  description: 'An organization the user belongs to.',
  fields: (t) => ({
    organizationId: t.exposeID('id', { description: 'Organization id.' }),
    name: t.exposeString('name', { description: 'Organization name.' }),
    role: t.expose('role', { type: RoleEnum, description: 'The user\'s role there.' }),
  }),
});

const SignInPayload = builder.objectRef<Awaited<ReturnType<typeof signIn>>>('SignInPayload').implement({
  description: 'A new session.',
  fields: (t) => ({
    token: t.exposeString('token', { description: 'Session token: send it as Authorization: Bearer <token>.' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', description: 'When the token stops working.' }),
    user: t.field({ type: SignedInUser, description: 'The signed-in user.', resolve: (p) => p.user }),
    organizationId: t.exposeID('organizationId', { description: 'Organization the session acts in (X-Organization-Id picks another).' }),
    role: t.expose('role', { type: RoleEnum, description: 'Role in that organization.' }),
    organizations: t.field({ type: [OrganizationMembership], description: 'Every organization the user belongs to.', resolve: (p) => p.organizations }),
  }),
});

const Viewer = builder.objectRef<AuthInfo>('Viewer').implement({
  description: 'Who is calling, and what they may do.',
  fields: (t) => ({
    organizationId: t.id({ description: 'Organization of the caller.', resolve: (a) => a.organization.id }),
    organizationName: t.string({ description: 'Name of the organization.', resolve: (a) => a.organization.name }),
    capabilities: t.stringList({ description: 'Plan capabilities of the organization.', resolve: (a) => a.organization.capabilities }),
    actorType: t.string({ description: 'USER for a signed-in user, API_KEY for an API key.', resolve: (a) => (a.actor.type === 'user' ? 'USER' : 'API_KEY') }),
    actorId: t.id({ description: 'User id or API key id.', resolve: (a) => a.actor.id }),
    role: t.field({ type: RoleEnum, nullable: true, description: 'Role of a signed-in user.', resolve: (a) => a.actor.role ?? null }),
    scopes: t.stringList({ nullable: true, description: 'Scopes of an API key.', resolve: (a) => a.actor.scopes ?? null }),
    permissions: t.stringList({ description: 'Permissions the caller holds.', resolve: (a) => [...a.permissions].sort() }),
  }),
});

builder.queryFields((t) => ({
  viewer: t.field({
    type: Viewer,
    description: 'The caller: organization, identity and permissions.',
    authScopes: { authenticated: true },
    resolve: (_parent, _args, ctx) => ctx.auth!,
  }),
}));

builder.mutationFields((t) => ({
  signIn: t.field({
    refusals: ['ValidationError'],
    type: SignInPayload,
    description: 'Signs a user in with email and password and starts a session.',
    authScopes: { public: true },
    args: {
      email: t.arg.string({ required: true, description: 'Email address.' }),
      password: t.arg.string({ required: true, description: 'Password.' }),
      organizationId: t.arg.id({ description: 'Organization to act in (default: the first one joined).' }),
    },
    resolve: (_parent, args, ctx) => signIn(ctx, { ...args, organizationId: args.organizationId ? String(args.organizationId) : null }),
  }),
  signOut: t.boolean({
    refusals: [],
    description: 'Ends the current session (API keys have no session: false).',
    authScopes: { authenticated: true },
    resolve: (_parent, _args, ctx) => signOut(ctx),
  }),
}));
