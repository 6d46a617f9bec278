import pg from 'pg';
import type { Client } from '../../../db/database.js';
import type { EventFanOut } from './event-fan-out.js';
import type { EventChannel } from './publish-batch.js';
import { type EventPosition, parsePosition, positionOf, positionText, readEventsAfter } from './published-event.js';
import { PUBLISHER } from './publish-batch.js';

/** The NOTIFY channel of published batches. */
export const NOTIFY_CHANNEL = 'domain_events_published';

/** Wait before a lost listening connection is opened again. */
const RECONNECT_MS = 1_000;

/**
 * The channel on PostgreSQL: the publisher NOTIFYs "<from>/<to>" (two positions, never the events: a payload
 * is limited to 8,000 bytes) in the transaction that moves its cursor, so PostgreSQL tells every listening
 * instance at commit and never for a rolled-back batch. Each instance LISTENs on a connection of its own and
 * reads the events between the position it has delivered up to and the notified one, so a batch missed while
 * its connection was down is delivered with the next.
 */
export async function openPostgresChannel(
  options: { url: string; prisma: Client; fanOut: EventFanOut; log: (message: string) => void },
): Promise<EventChannel & { close(): Promise<void> }> {
  const { url, prisma, fanOut, log } = options;
  const [cursor] = await prisma.$queryRaw<{ txid: bigint; lastId: bigint }[]>`
    SELECT txid, "lastId" FROM event_publisher_cursors WHERE name = ${PUBLISHER}`;
  let delivered: EventPosition = cursor ? { txid: cursor.txid, id: cursor.lastId } : { txid: 0n, id: 0n };
  let closed = false;
  let client: pg.Client | null = null;
  let reconnect: NodeJS.Timeout | null = null;
  // Notifications are handled one after another, in the order they came.
  let handling: Promise<void> = Promise.resolve();

  async function deliverUpTo(to: EventPosition) {
    while (!closed && (delivered.txid < to.txid || (delivered.txid === to.txid && delivered.id < to.id))) {
      const events = await readEventsAfter(prisma, delivered, to);
      if (!events.length) break;
      delivered = positionOf(events.at(-1)!);
      fanOut.deliver(events);
    }
  }

  async function listen() {
    const next = new pg.Client({ connectionString: url });
    next.on('error', (error) => log(`event listener: ${error.message}`));
    next.on('notification', (message) => {
      const to = parsePosition(message.payload?.split('/')[1] ?? '');
      if (!to) return;
      handling = handling.then(() => deliverUpTo(to)).catch((error: unknown) => log(`event delivery: ${(error as Error).message}`));
    });
    next.on('end', () => {
      if (closed || client !== next) return;
      client = null;
      reconnect = setTimeout(() => void listen().catch((error: unknown) => log(`event listener: ${(error as Error).message}`)), RECONNECT_MS);
    });
    await next.connect();
    await next.query(`LISTEN ${NOTIFY_CHANNEL}`);
    if (closed) return void (await next.end());
    client = next;
  }
  await listen();

  return {
    async announce(ctx, from, events) {
      const payload = `${positionText(from)}/${positionText(positionOf(events.at(-1)!))}`;
      await ctx.prisma.$executeRaw`SELECT pg_notify(${NOTIFY_CHANNEL}, ${payload})`;
    },
    committed: () => {},
    async close() {
      closed = true;
      if (reconnect) clearTimeout(reconnect);
      const open = client;
      client = null;
      await open?.end().catch(() => {});
      await handling;
    },
  };
}
