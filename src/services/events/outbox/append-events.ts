import type { DbContext } from '../../../context.js';
import type { InTransaction, TxContext } from '../../../db/transactions.js';
import type { Prisma } from '../../../generated/prisma/client.js';
import type { EventType } from '../../../kernel/event-types.js';
import { orgId } from '../../tenant.js';

/** One domain event, as a service tells of it. */
export interface NewEvent {
  type: EventType;
  /** The record the event is about. */
  subjectId: string;
  productId?: string | null;
  locationId?: string | null;
  payload: Prisma.InputJsonObject;
}

/**
 * The one writer of the outbox from services: the events of a change, in the transaction of the change
 * (a TxContext, so a call outside one does not compile), for the context's organization. Stock changes
 * need no call: the ledger's trigger writes them.
 */
export async function appendEvents(ctx: TxContext, events: NewEvent[]): Promise<void> {
  await appendEventsOf(ctx, orgId(ctx), events);
}

/**
 * The same for work of no caller's organization (the webhooks worker disabling an endpoint): the events of
 * the organization named, in the transaction of the change.
 */
export async function appendEventsOf(ctx: InTransaction<DbContext>, organizationId: string, events: NewEvent[]): Promise<void> {
  if (!events.length) return;
  await ctx.prisma.domainEvent.createMany({
    data: events.map((event) => ({
      organizationId,
      type: event.type,
      subjectId: event.subjectId,
      productId: event.productId ?? null,
      locationId: event.locationId ?? null,
      payload: event.payload,
    })),
  });
}
