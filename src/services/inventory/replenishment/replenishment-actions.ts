import type { z } from 'zod';
import type { replenishmentActionInput } from '../../../contracts/inventory/replenishment/replenishment-records.js';
import type { RequestContext } from '../../../context.js';
import type { ReplenishmentRecord } from '../../../generated/prisma/client.js';
import { approveReplenishment } from './replenishment-approve.js';
import { cancelReplenishment } from './replenishment-cancel.js';
import { convertReplenishment } from './replenishment-convert.js';
import { createReplenishments } from './replenishment-create.js';

/** The input as its contract outputs it (parsed once, where it comes in). */
export type ReplenishmentActionInput = z.output<typeof replenishmentActionInput>;

/** What POST /api/inventory/replenishment does, by `action`: the records created, or the one record moved. */
export async function actOnReplenishment(ctx: RequestContext, input: ReplenishmentActionInput): Promise<ReplenishmentRecord[]> {
  const move = { id: input.id!, comment: input.comment };
  switch (input.action) {
    case 'create':
      return createReplenishments(ctx, { items: input.items! });
    case 'approve':
      return [await approveReplenishment(ctx, move)];
    case 'convert':
      return [await convertReplenishment(ctx, move)];
    case 'cancel':
      return [await cancelReplenishment(ctx, move)];
  }
}
