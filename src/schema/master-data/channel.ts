import { builder } from '../builder.js';
import { channels } from '../../services/master-data/channels.js';
import { defineMasterDataFields } from './master-data-fields.js';
import { NodeRef } from '../node/node-interface.js';

export const ChannelType = builder.prismaObject('Channel', {
  interfaces: [NodeRef],
  description: 'A sales channel the organization sells through (web shop, marketplace, wholesale, ...).',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'Channel name, unique within the organization.' }),
    type: t.exposeString('type', { description: 'Kind of channel, upper case (default OTHER).' }),
    channelType: t.exposeString('type', { description: 'The same as type (name used by channel ATP responses).' }),
  }),
});

defineMasterDataFields({
  model: 'Channel',
  singular: 'channel',
  plural: 'channels',
  read: 'inventory.read',
  write: 'channels.write',
  searchDescription: 'Case-insensitive match on name or type.',
  service: channels,
});
