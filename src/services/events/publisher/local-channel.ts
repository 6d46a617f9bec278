import type { EventFanOut } from './event-fan-out.js';
import type { EventChannel } from './publish-batch.js';

/**
 * The channel on PGlite: the database belongs to one process (its data folder is locked), so the publisher
 * and every subscriber are in this process, and a committed batch goes straight to the fan-out.
 */
export const localChannel = (fanOut: EventFanOut): EventChannel => ({
  announce: async () => {},
  committed: (events) => fanOut.deliver(events),
});
