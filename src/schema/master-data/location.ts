import { builder } from '../builder.js';
import { locations } from '../../services/master-data/locations.js';
import { defineMasterDataFields } from './master-data-fields.js';
import { NodeRef } from '../node/node-interface.js';

export const LocationType = builder.prismaObject('Location', {
  interfaces: [NodeRef],
  description: 'A place that holds stock: a warehouse, store or other site of the organization.',
  fields: (t) => ({
    code: t.exposeString('code', { description: 'Short code, unique within the organization.' }),
    name: t.exposeString('name', { description: 'Location name.' }),
    type: t.exposeString('type', { description: 'Kind of location, upper case (default WAREHOUSE).' }),
  }),
});

defineMasterDataFields({
  model: 'Location',
  singular: 'location',
  plural: 'locations',
  read: 'inventory.read',
  write: 'locations.write',
  searchDescription: 'Case-insensitive match on code or name.',
  service: locations,
  restList: { field: 'allLocations', path: 'GET /api/inventory/locations' },
});
