import type { z } from 'zod';
import {
  type pendingRecommendationQuery,
  recommendationDecision as decisionSchema,
  type recommendationListQuery as listSchema,
  RECOMMENDATIONS_DEFAULT_LIMIT,
} from '../../../contracts/transfers/recommendations/recommendations.js';
import type { RequestContext } from '../../../context.js';
import { Prisma } from '../../../generated/prisma/client.js';
import { DomainError, notFound } from '../../../kernel/errors.js';
import { actorOf } from '../../actor-of.js';
import { checkFilterIds } from '../../filter-ids.js';
import { type ListWindow, orgId, parseInput } from '../../tenant.js';
import { listOrder } from './recommendation-order.js';
import { availableByLocation, effectiveStatus, NOW_UTC, recommendationColumns, type TransferRecommendationRow } from './recommendation-rows.js';


/** The filters as their contracts output them (parsed once, where they come in). */
export type RecommendationListArgs = z.output<typeof listSchema>;
export type PendingRecommendationArgs = z.output<typeof pendingRecommendationQuery>;
export type RecommendationDecision = z.input<typeof decisionSchema>;

export interface RecommendationPage {
  recommendations: TransferRecommendationRow[];
  total: number;
  limit: number;
  offset: number;
}

/**
 * A page of the organization's recommendations, most pressing first, then newest. `status` filters on the
 * status reads answer (an overdue PENDING one is EXPIRED); validOnly keeps PENDING and APPROVED ones whose
 * source has the quantity available today.
 */
export async function listTransferRecommendations(ctx: RequestContext, args: RecommendationListArgs, window?: ListWindow): Promise<RecommendationPage> {
  await checkFilterIds(ctx, { productMasterId: args.productMasterId, locationId: [args.sourceLocationId, args.destLocationId] });
  const organizationId = orgId(ctx);
  const limit = window ? window.take : (args.limit ?? RECOMMENDATIONS_DEFAULT_LIMIT);
  const offset = window ? window.skip : (args.offset ?? 0);
  const conditions = [Prisma.sql`r."organizationId" = ${organizationId}`];
  if (args.status) conditions.push(Prisma.sql`${effectiveStatus('r')} = ${args.status}`);
  if (args.priority) conditions.push(Prisma.sql`r.priority = ${args.priority}::"TransferPriority"`);
  if (args.productMasterId) conditions.push(Prisma.sql`r."productMasterId" = ${args.productMasterId}`);
  if (args.sourceLocationId) conditions.push(Prisma.sql`r."sourceLocationId" = ${args.sourceLocationId}`);
  if (args.destLocationId) conditions.push(Prisma.sql`r."destLocationId" = ${args.destLocationId}`);
  if (args.validOnly) {
    conditions.push(Prisma.sql`${effectiveStatus('r')} IN ('PENDING', 'APPROVED')`);
    conditions.push(Prisma.sql`COALESCE((
      SELECT a.available FROM (${availableByLocation(Prisma.sql`s."organizationId" = r."organizationId" AND s."productMasterId" = r."productMasterId" AND s."locationId" = r."sourceLocationId"`)}) a
    ), 0) >= r.quantity`);
  }
  const where = Prisma.join(conditions, ' AND ');
  const [rows, [count]] = await Promise.all([
    ctx.prisma.$queryRaw<TransferRecommendationRow[]>`
      SELECT ${recommendationColumns('r')} FROM transfer_recommendations r WHERE ${where} ${listOrder('r')} LIMIT ${limit} OFFSET ${offset}`,
    ctx.prisma.$queryRaw<{ total: number }[]>`SELECT COUNT(*)::int AS total FROM transfer_recommendations r WHERE ${where}`,
  ]);
  return { recommendations: rows, total: count!.total, limit, offset };
}

/** GET …/pending: the PENDING ones that are not overdue, with the list's other filters. */
export function listPendingTransferRecommendations(ctx: RequestContext, args: PendingRecommendationArgs, window?: ListWindow) {
  return listTransferRecommendations(ctx, { ...args, status: 'PENDING' }, window);
}

export async function getTransferRecommendation(ctx: RequestContext, id: string): Promise<TransferRecommendationRow> {
  const db = ctx.prisma;
  const [row] = await db.$queryRaw<TransferRecommendationRow[]>`
    SELECT ${recommendationColumns('r')} FROM transfer_recommendations r WHERE r.id = ${id} AND r."organizationId" = ${orgId(ctx)}`;
  if (!row) throw notFound('Recommendation');
  return row;
}

/** Refusal of a move out of a state that does not allow it; reading the row first answers 404 for unknown and foreign ids. */
export async function notFrom(ctx: RequestContext, id: string, allowed: string, doing: string): Promise<never> {
  const row = await getTransferRecommendation(ctx, id);
  const article = /^[AEIOU]/.test(allowed) ? 'an' : 'a';
  throw new DomainError('INVALID_STATE', `The recommendation is ${row.status}: only ${article} ${allowed} recommendation can be ${doing}`);
}

/**
 * PENDING → APPROVED or REJECTED, in one guarded UPDATE: of two decisions at once only one finds the row
 * still PENDING; an overdue PENDING recommendation is EXPIRED and cannot be decided.
 */
async function decide(ctx: RequestContext, id: string, raw: RecommendationDecision, decision: 'APPROVED' | 'REJECTED') {
  const { comment } = parseInput(decisionSchema, raw ?? {});
  const { actorType, createdBy } = actorOf(ctx);
  const set =
    decision === 'APPROVED'
      ? Prisma.sql`status = 'APPROVED', "approvedAt" = ${NOW_UTC}, "approvedByType" = ${actorType}, "approvedBy" = ${createdBy}, "approvalComment" = ${comment ?? null}`
      : Prisma.sql`status = 'REJECTED', "rejectedAt" = ${NOW_UTC}, "rejectedByType" = ${actorType}, "rejectedBy" = ${createdBy}, "rejectionComment" = ${comment ?? null}`;
  const [row] = await ctx.prisma.$queryRaw<TransferRecommendationRow[]>`
    UPDATE transfer_recommendations r SET ${set}, "updatedAt" = ${NOW_UTC}
    WHERE r.id = ${id} AND r."organizationId" = ${orgId(ctx)} AND r.status = 'PENDING' AND r."expiresAt" > ${NOW_UTC}
    RETURNING ${recommendationColumns('r')}`;
  return row ?? notFrom(ctx, id, 'PENDING', decision === 'APPROVED' ? 'approved' : 'rejected');
}

export const approveTransferRecommendation = (ctx: RequestContext, id: string, raw: RecommendationDecision = {}) => decide(ctx, id, raw, 'APPROVED');
export const rejectTransferRecommendation = (ctx: RequestContext, id: string, raw: RecommendationDecision = {}) => decide(ctx, id, raw, 'REJECTED');
