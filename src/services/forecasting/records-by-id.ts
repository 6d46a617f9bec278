import type { RequestContext } from '../../context.js';
import { orgId } from '../tenant.js';

// Reads of forecasting records by id for the links of other types (one statement per page of ids).
// Each leaves out ids of other organizations and unknown ones.

/** The organization's forecast scenarios among these ids. */
export function forecastScenariosByIds(ctx: RequestContext, ids: readonly string[]) {
  return ctx.prisma.forecastScenario.findMany({ where: { organizationId: orgId(ctx), id: { in: [...ids] } } });
}

/** The organization's forecast runs among these ids. */
export function forecastRunsByIds(ctx: RequestContext, ids: readonly string[]) {
  return ctx.prisma.forecastRun.findMany({ where: { organizationId: orgId(ctx), id: { in: [...ids] } } });
}

/** The organization's forecast overrides among these ids. */
export function forecastOverridesByIds(ctx: RequestContext, ids: readonly string[]) {
  return ctx.prisma.forecastOverride.findMany({ where: { organizationId: orgId(ctx), id: { in: [...ids] } } });
}

/** The organization's external events among these ids. */
export function externalEventsByIds(ctx: RequestContext, ids: readonly string[]) {
  return ctx.prisma.externalEvent.findMany({ where: { organizationId: orgId(ctx), id: { in: [...ids] } } });
}
