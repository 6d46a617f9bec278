import type { Tenant } from './fixtures.js';
import { wsConnection } from './graphql-ws.js';
import type { TestServer } from './server.js';

/**
 * A graphql-ws subscriber to a status-moves subscription (shipmentChanged, bookingChanged): `field` is the
 * subscription field, `record` the key of the moved record in each message.
 */
export async function statusMoveSubscriber(server: TestServer, tenant: Tenant, query: string, field: string, record: string, variables: Record<string, unknown>) {
  const ws = wsConnection(server.url);
  await ws.init({ authorization: `Bearer ${tenant.key}` });
  const id = await ws.subscribe(query, variables);
  return {
    ws,
    id,
    sent: () => ws.messages.filter((m) => m.id === id && m.type === 'next').map((m) => m.payload.data[field]),
    /** The first message with a move to `to` of this record. */
    moveTo: async (recordId: string, to: string) =>
      (await ws.message((m) => m.id === id && m.type === 'next' && m.payload.data[field][record].id === recordId && m.payload.data[field].to === to))?.payload.data[field],
  };
}
