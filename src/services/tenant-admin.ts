import type { RequestContext } from '../context.js';
import { authOf } from './tenant.js';

/** A tenant administrator: an ADMIN user of the organization, or an API key with the * scope. */
export const isTenantAdmin = (ctx: RequestContext) => {
  const { actor } = authOf(ctx);
  return actor.role === 'ADMIN' || Boolean(actor.scopes?.includes('*'));
};
