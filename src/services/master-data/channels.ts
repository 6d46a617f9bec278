import { channelCreate, channelUpdate } from '../../contracts/master-data/reference-inputs.js';
import { masterData } from './master-data.js';

/** Also handed whole to the GraphQL fields. */
export const channels = masterData({
  label: 'Channel',
  delegate: (db) => db.channel,
  uniqueField: 'name',
  searchFields: ['name', 'type'],
  contracts: { create: channelCreate, update: channelUpdate },
  // Rows that point at a channel (ATP policies, demand history, ...) add their check here.
  inUse: async () => null,
});

export const {
  list: listChannels, get: getChannel, create: createChannel, update: updateChannel, remove: deleteChannel,
} = channels;
