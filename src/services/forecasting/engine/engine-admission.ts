import type { RequestContext } from '../../../context.js';
import { DomainError } from '../../../kernel/errors.js';
import { orgId } from '../../tenant.js';

/**
 * Requests running forecasting work, per organization, per process (App). A request holds one place however
 * many forecasting fields it runs (GraphQL aliases share it: the cost limit bounds those), so that the
 * places count requests queued on the worker threads.
 */
const running = new WeakMap<object, Map<string, number>>();
/** Forecasting calls in progress per request: the place is given back when the last one ends. */
const depth = new WeakMap<RequestContext, number>();

/**
 * Runs `work` as one of the organization's forecasting requests: at most FORECAST_REQUESTS_PER_ORGANIZATION
 * at once (config.forecastRequestsPerOrganization); one more is refused at once with 429 ENGINE_BUSY, so that
 * one organization cannot fill the worker threads' queue that every organization's requests share. REST and
 * GraphQL come through here alike (the services call it); stored runs' batches do not (their loops are
 * bounded by FORECAST_RUN_WORKERS).
 */
export async function asForecastRequest<T>(ctx: RequestContext, work: () => Promise<T>): Promise<T> {
  const organizationId = orgId(ctx);
  let counts = running.get(ctx.app);
  if (!counts) running.set(ctx.app, (counts = new Map()));
  const held = depth.get(ctx) ?? 0;
  if (!held) {
    const limit = ctx.app.config.forecastRequestsPerOrganization;
    const busy = counts.get(organizationId) ?? 0;
    if (busy >= limit) {
      throw new DomainError('ENGINE_BUSY', `This organization already has ${limit} forecasting requests running; retry when one has answered`, { retryAfter: 1, limit });
    }
    counts.set(organizationId, busy + 1);
  }
  depth.set(ctx, held + 1);
  try {
    return await work();
  } finally {
    const left = (depth.get(ctx) ?? 1) - 1;
    if (left) depth.set(ctx, left);
    else {
      depth.delete(ctx);
      const others = (counts.get(organizationId) ?? 1) - 1;
      if (others) counts.set(organizationId, others);
      else counts.delete(organizationId);
    }
  }
}
