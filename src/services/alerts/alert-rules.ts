// An organization's alert rules: read with reports.read, changed by its administrators (docs/alerts.md).
import type { z } from 'zod';
import { MAX_RULES, PRODUCT_SCOPED_KINDS, SCOPED_KINDS, THRESHOLDS, type AlertKindName, type alertRuleChanges, type alertRuleCreate } from '../../contracts/alerts/alert-rules.js';
import type { RequestContext } from '../../context.js';
import { inTransaction } from '../../db/transactions.js';
import type { AlertRule } from '../../generated/prisma/client.js';
import { DomainError, newFieldErrors, notFound, validationError } from '../../kernel/errors.js';
import { checkFilterIds } from '../filter-ids.js';
import { type ListWindow, orgId } from '../tenant.js';

export type AlertRuleCreate = z.output<typeof alertRuleCreate>;
export type AlertRuleChanges = z.output<typeof alertRuleChanges>;

const scoped = (ctx: RequestContext, id: string) => ({ id, organizationId: orgId(ctx) });

/** The threshold and scope a kind takes: a missing or out-of-range threshold, or a scope the kind ignores, is a 400 naming the field. */
function checkRuleShape(kind: AlertKindName, rule: { threshold?: number | null; locationId?: string | null; productId?: string | null; categoryId?: string | null }) {
  const errors = newFieldErrors();
  const bounds = THRESHOLDS[kind];
  if (bounds && rule.threshold == null) errors.threshold = [`Required for ${kind}: ${bounds.unit}, ${bounds.min} to ${bounds.max}`];
  else if (bounds && (rule.threshold! < bounds.min || rule.threshold! > bounds.max)) errors.threshold = [`For ${kind}: ${bounds.unit}, ${bounds.min} to ${bounds.max}`];
  else if (!bounds && rule.threshold != null) errors.threshold = [`${kind} takes no threshold`];
  if (rule.locationId && !SCOPED_KINDS.includes(kind)) errors.locationId = [`${kind} takes no location scope`];
  for (const field of ['productId', 'categoryId'] as const) {
    if (rule[field] && !PRODUCT_SCOPED_KINDS.includes(kind)) errors[field] = [`${kind} takes no ${field === 'productId' ? 'product' : 'category'} scope`];
  }
  if (Object.keys(errors).length) throw validationError(errors, 'The threshold or scope does not fit the kind');
}

async function checkScopeIds(ctx: RequestContext, rule: { locationId?: string | null; productId?: string | null; categoryId?: string | null }) {
  await checkFilterIds(ctx, { locationId: rule.locationId, productMasterId: rule.productId });
  if (rule.categoryId && !(await ctx.prisma.category.count({ where: { id: rule.categoryId, organizationId: orgId(ctx) } }))) throw notFound('Category');
}

/** The organization's rules (at most MAX_RULES), newest first; a connection's window picks some. */
export async function listAlertRules(ctx: RequestContext, window?: ListWindow) {
  const where = { organizationId: orgId(ctx) };
  const [items, total] = await Promise.all([
    ctx.prisma.alertRule.findMany({ where, orderBy: { id: 'desc' }, ...(window ? { skip: window.skip, take: window.take } : {}) }),
    ctx.prisma.alertRule.count({ where }),
  ]);
  return { items, total };
}

/** One rule of the organization; unknown or foreign: 404. */
export async function getAlertRule(ctx: RequestContext, id: string): Promise<AlertRule> {
  const rule = await ctx.prisma.alertRule.findFirst({ where: scoped(ctx, id) });
  if (!rule) throw notFound('Alert rule');
  return rule;
}

/** The organization's rules by id (the record loader of Alert.rule). */
export function alertRulesByIds(ctx: RequestContext, ids: readonly string[]) {
  return ctx.prisma.alertRule.findMany({ where: { id: { in: [...ids] }, organizationId: orgId(ctx) } });
}

export async function createAlertRule(ctx: RequestContext, input: AlertRuleCreate): Promise<AlertRule> {
  checkRuleShape(input.kind, input);
  await checkScopeIds(ctx, input);
  const organizationId = orgId(ctx);
  // Creations of one organization take turns, so two at once cannot both pass the count.
  return inTransaction(ctx, async (tx) => {
    await tx.prisma.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`alert-rules:${organizationId}`}))`;
    if ((await tx.prisma.alertRule.count({ where: { organizationId } })) >= MAX_RULES) {
      throw new DomainError('INVALID_STATE', `The organization has ${MAX_RULES} alert rules already, the most it may have; delete one first`);
    }
    return tx.prisma.alertRule.create({
      data: {
        organizationId,
        kind: input.kind,
        threshold: input.threshold ?? null,
        locationId: input.locationId ?? null,
        productId: input.productId ?? null,
        categoryId: input.categoryId ?? null,
        severity: input.severity ?? 'WARNING',
        enabled: input.enabled ?? true,
      },
    });
  });
}

/** Changes threshold, scope, severity or enabled; the result must still fit the kind. Open alerts keep the severity they were raised with. */
export async function updateAlertRule(ctx: RequestContext, id: string, input: AlertRuleChanges): Promise<AlertRule> {
  return inTransaction(ctx, async (tx) => {
    const [current] = await tx.prisma.$queryRaw<AlertRule[]>`SELECT * FROM alert_rules WHERE id = ${id} AND "organizationId" = ${orgId(ctx)} FOR UPDATE`;
    if (!current) throw notFound('Alert rule');
    const next = {
      threshold: input.threshold === undefined ? current.threshold : input.threshold,
      locationId: input.locationId === undefined ? current.locationId : input.locationId,
      productId: input.productId === undefined ? current.productId : input.productId,
      categoryId: input.categoryId === undefined ? current.categoryId : input.categoryId,
    };
    checkRuleShape(current.kind, next);
    await checkScopeIds(tx, { locationId: input.locationId, productId: input.productId, categoryId: input.categoryId });
    return tx.prisma.alertRule.update({ where: { id: current.id }, data: { ...next, severity: input.severity, enabled: input.enabled } });
  });
}

/** Deletes a rule with its alerts (open or not); answers it as it was. */
export async function deleteAlertRule(ctx: RequestContext, id: string): Promise<AlertRule> {
  const rule = await getAlertRule(ctx, id);
  const { count } = await ctx.prisma.alertRule.deleteMany({ where: scoped(ctx, id) });
  if (!count) throw notFound('Alert rule');
  return rule;
}
