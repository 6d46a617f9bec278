import { type App, operatorContext } from '../../../context.js';
import type { Database } from '../../../db/database.js';
import { startWorkLoops } from '../../work-loops.js';
import { EventFanOut } from './event-fan-out.js';
import { localChannel } from './local-channel.js';
import { openPostgresChannel } from './postgres-channel.js';
import { publishBatch } from './publish-batch.js';

export interface RunningEvents {
  fanOut: EventFanOut;
  stop(): Promise<void>;
}

/**
 * This instance's part in publishing (docs/events.md): its fan-out, fed by the channel (LISTEN/NOTIFY on
 * PostgreSQL, in-process on PGlite), and, unless pollMs is 0, a publisher loop that competes for the cursor
 * with the other instances' (one wins each batch).
 */
export async function startEvents(app: App, database: Database, options: { pollMs: number; log: (message: string) => void }): Promise<RunningEvents> {
  const fanOut = new EventFanOut(options.log);
  const channel =
    database.kind === 'postgres' && database.url
      ? await openPostgresChannel({ url: database.sessionUrl ?? database.url, prisma: database.prisma, fanOut, log: options.log })
      : { ...localChannel(fanOut), close: async () => {} };
  const ctx = operatorContext(app.prisma, 'event-publisher');
  const loops = startWorkLoops({
    name: 'event publisher',
    count: options.pollMs > 0 ? 1 : 0,
    pollMs: options.pollMs,
    step: async () => (await publishBatch(ctx, channel)) > 0,
    log: options.log,
  });
  return {
    fanOut,
    async stop() {
      await loops.stop();
      await channel.close();
      fanOut.close();
    },
  };
}
