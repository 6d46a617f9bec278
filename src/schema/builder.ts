import SchemaBuilder from '@pothos/core';
import ErrorsPlugin from '@pothos/plugin-errors';
import PrismaPlugin from '@pothos/plugin-prisma';
import RelayPlugin from '@pothos/plugin-relay';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import type { RequestContext } from '../context.js';
import { DomainError } from '../kernel/errors.js';
import type PrismaTypes from '../generated/pothos-prisma-types.js';
import { getDatamodel } from '../generated/pothos-prisma-types.js';
import type { Permission } from '../auth/permissions.js';
import { mutationRefusalsPlugin } from './mutation-refusals-plugin.js';
import { fieldErrorsPlugin } from './field-errors-plugin.js';
import { stablePathsPlugin } from './stable-paths-plugin.js';

export const builder = new SchemaBuilder<{
  Context: RequestContext;
  PrismaTypes: PrismaTypes;
  AuthScopes: {
    /** Anyone, signed in or not. Declared so that every root field names its policy. */
    public: boolean;
    /** The caller holds this permission (from the API key's scopes or the user's role). */
    permission: Permission;
    /** Any authenticated caller. */
    authenticated: boolean;
    /** The caller is a signed-in user, not an API key. */
    session: boolean;
    /** The organization's plan includes this capability. */
    capability: string;
  };
  Scalars: {
    DateTime: { Input: Date; Output: Date };
    Date: { Input: string; Output: Date | string };
    Decimal: { Input: number; Output: number | { toNumber(): number } };
    BigQuantity: { Input: number; Output: number | bigint };
    JSON: { Input: unknown; Output: unknown };
  };
  DefaultFieldNullability: false;
}>({
  // Errors before Prisma (so prismaField mutations get typed errors), and before the plugin that gives
  // every mutation its refusal types; scope-auth first, so that permission failures stay top-level errors
  // (on the refused field: fieldErrors makes refusable root Query fields nullable, and lookups null when absent).
  // stablePaths outermost, so every plugin reads the request's one path object per place under graphql-jit.
  plugins: [stablePathsPlugin, ScopeAuthPlugin, RelayPlugin, ErrorsPlugin, mutationRefusalsPlugin, fieldErrorsPlugin, PrismaPlugin],
  // A mutation's union holds the object it returns itself (no Success wrapper): a client adds
  // `... on Product { … }` around the selection it had, and `... on MutationError { code message fields { field messages } }`.
  errors: { directResult: true },
  // Descriptions for the parts every connection shares (cursor pagination, Relay style).
  relay: {
    nodeQueryOptions: false,
    nodesQueryOptions: false,
    firstArgOptions: { description: 'Return at most this many items from the start (after `after`): 0 to 100 unless the list says otherwise; more is VALIDATION_ERROR, never a cut page.' },
    lastArgOptions: { description: 'Return at most this many items from the end (before `before`): 0 to 100 unless the list says otherwise; more is VALIDATION_ERROR, never a cut page.' },
    afterArgOptions: { description: 'Return items after this cursor (an `endCursor` or edge `cursor` of a previous page).' },
    beforeArgOptions: { description: 'Return items before this cursor (a `startCursor` or edge `cursor` of a previous page).' },
    defaultConnectionTypeOptions: { description: 'A page of items with the cursors to fetch the next or previous page.' },
    defaultEdgeTypeOptions: { description: 'One item of a page and its cursor.' },
    edgesFieldOptions: { description: 'The items of this page, each with its cursor.' },
    pageInfoFieldOptions: { description: 'Where this page is in the whole list.' },
    nodeFieldOptions: { description: 'The item.' },
    cursorFieldOptions: { description: 'Opaque cursor of this item, for `after` or `before`.' },
    pageInfoTypeOptions: { description: 'Position of a page in the whole list.' },
    hasNextPageFieldOptions: { description: 'Whether items follow this page.' },
    hasPreviousPageFieldOptions: { description: 'Whether items precede this page.' },
    startCursorFieldOptions: { description: 'Cursor of the first item of this page (null when empty).' },
    endCursorFieldOptions: { description: 'Cursor of the last item of this page (null when empty).' },
  },
  defaultFieldNullability: false,
  prisma: {
    // Fields resolve outside any transaction: the process's client (a request context's own handle).
    client: (ctx) => ctx.app.prisma,
    dmmf: getDatamodel(),
    filterConnectionTotalCount: true,
    onUnusedQuery: process.env.NODE_ENV === 'production' ? null : 'warn',
  },
  scopeAuth: {
    // Scope checks throw the documented error themselves, so the caller learns why it was refused.
    authScopes: scopesOf,
    // A subscription's scopes are checked when it is created, before its subscribe function reads anything
    // (and learns NOT_FOUND first) or starts polling; without it they would run on each event only.
    authorizeOnSubscribe: true,
  },
});

/** The scopes of a request: each either holds (true) or throws the documented refusal. */
export function scopesOf(ctx: RequestContext) {
  return {
    public: true,
    permission: (permission: Permission) => {
      const auth = requireAuth(ctx);
      if (auth.permissions.has(permission)) return true;
      throw auth.actor.type === 'apiKey'
        ? new DomainError('INSUFFICIENT_SCOPE', `API key scopes do not grant ${permission}`, { permission })
        : new DomainError('FORBIDDEN', `Your role does not grant ${permission}`, { permission });
    },
    authenticated: () => Boolean(requireAuth(ctx)),
    session: () => {
      if (requireAuth(ctx).actor.type === 'user') return true;
      throw new DomainError('FORBIDDEN', 'This operation needs a signed-in user session, not an API key');
    },
    capability: (capability: string) => {
      if (requireAuth(ctx).organization.capabilities.includes(capability)) return true;
      throw new DomainError('FEATURE_NOT_ENABLED', `The organization's plan does not include ${capability}`, {
        feature: capability,
        planCapability: capability,
        entitlement: capability,
      });
    },
  };
}

function requireAuth(ctx: RequestContext) {
  if (!ctx.auth) throw new DomainError('MISSING_AUTHORIZATION', 'Authentication required: send Authorization: Bearer <API key or token>');
  return ctx.auth;
}
