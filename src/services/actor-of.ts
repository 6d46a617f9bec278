import type { RequestContext } from '../context.js';
import { authOf } from './tenant.js';

/** Who made a change, as the ledger and the other change records name them. */
export const actorOf = (ctx: RequestContext) => {
  const actor = authOf(ctx).actor;
  return { actorType: actor.type === 'user' ? 'USER' : 'API_KEY', createdBy: actor.id };
};
