// What a user does with an alert: acknowledge it (OPEN → ACKNOWLEDGED) or resolve it (OPEN or ACKNOWLEDGED →
// RESOLVED). Whoever is shown an alert (reports.read) may do both: the actor is recorded (docs/alerts.md).
import type { RequestContext } from '../../context.js';
import { inTransaction, type TxContext } from '../../db/transactions.js';
import type { Alert, AlertStatus } from '../../generated/prisma/client.js';
import { DomainError, notFound } from '../../kernel/errors.js';
import { actorOf } from '../actor-of.js';
import { appendEvents } from '../events/outbox/append-events.js';
import { orgId } from '../tenant.js';
import { alertEvent } from './alert-events.js';

const ALLOWED_FROM = {
  acknowledge: ['OPEN'],
  resolve: ['OPEN', 'ACKNOWLEDGED'],
} as const satisfies Record<string, readonly AlertStatus[]>;

/** Locks the organization's alert and checks the move may start from its state: 404 unknown or foreign, 409 INVALID_STATE otherwise. */
async function lockAlertFor(ctx: TxContext, id: string, move: keyof typeof ALLOWED_FROM): Promise<Alert> {
  const [alert] = await ctx.prisma.$queryRaw<Alert[]>`SELECT * FROM alerts WHERE id = ${id} AND "organizationId" = ${orgId(ctx)} FOR UPDATE`;
  if (!alert) throw notFound('Alert');
  const allowed: readonly AlertStatus[] = ALLOWED_FROM[move];
  if (!allowed.includes(alert.status)) throw new DomainError('INVALID_STATE', `Cannot ${move} an alert that is ${alert.status}; allowed from ${allowed.join(' or ')}`);
  return alert;
}

export async function acknowledgeAlert(ctx: RequestContext, id: string): Promise<Alert> {
  return inTransaction(ctx, async (tx) => {
    const alert = await lockAlertFor(tx, id, 'acknowledge');
    const actor = actorOf(ctx);
    const moved = await tx.prisma.alert.update({ where: { id: alert.id }, data: { status: 'ACKNOWLEDGED', acknowledgedAt: new Date(), acknowledgedByType: actor.actorType, acknowledgedBy: actor.createdBy } });
    await appendEvents(tx, [alertEvent('alert.acknowledged', moved, alert.status)]);
    return moved;
  });
}

export async function resolveAlert(ctx: RequestContext, id: string, note: string | null | undefined): Promise<Alert> {
  return inTransaction(ctx, async (tx) => {
    const alert = await lockAlertFor(tx, id, 'resolve');
    const actor = actorOf(ctx);
    const moved = await tx.prisma.alert.update({
      where: { id: alert.id },
      data: { status: 'RESOLVED', resolvedAt: new Date(), resolvedByType: actor.actorType, resolvedBy: actor.createdBy, resolutionNote: note?.trim() || null },
    });
    await appendEvents(tx, [alertEvent('alert.resolved', moved, alert.status)]);
    return moved;
  });
}
