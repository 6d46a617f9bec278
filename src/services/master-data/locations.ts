import { locationCreate, locationUpdate } from '../../contracts/master-data/reference-inputs.js';
import { masterData } from './master-data.js';

/** Also handed whole to the GraphQL fields. */
export const locations = masterData({
  label: 'Location',
  delegate: (db) => db.location,
  uniqueField: 'code',
  searchFields: ['code', 'name'],
  contracts: { create: locationCreate, update: locationUpdate },
  // Rows that point at a location (stock lines, transfers, ...) add their check here.
  inUse: async () => null,
});

export const {
  list: listLocations, get: getLocation, create: createLocation, update: updateLocation, remove: deleteLocation,
} = locations;
