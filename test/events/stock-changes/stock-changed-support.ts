import type { wsConnection } from '../../support/graphql-ws.js';
import type { TestServer } from '../../support/server.js';

type Socket = ReturnType<typeof wsConnection>;

/** Waits until the server's fan-out has this many live streams (a subscription is registered, or has ended). */
export async function streams(server: TestServer, count: number) {
  while (server.app.events!.streamCount !== count) await new Promise((r) => setTimeout(r, 10));
}

/** What subscription `id` has sent so far. */
export const sent = (ws: Socket, id: string) => ws.messages.filter((m) => m.id === id && m.type === 'next').map((m) => m.payload.data.stockChanged);

/** The first change of this stock line that subscription `id` sends. */
export const changeOf = async (id: string, ws: Socket, stockLineId: string) =>
  (await ws.message((m) => m.id === id && m.type === 'next' && m.payload.data.stockChanged.stockLineId === stockLineId))?.payload.data.stockChanged;

export const STOCK_CHANGED = `subscription ($locationId: ID, $productId: ID) {
  stockChanged(locationId: $locationId, productId: $productId) { eventId stockLineId productId locationId changes { transactionType bucket deltaQty qtyAfter } } }`;
