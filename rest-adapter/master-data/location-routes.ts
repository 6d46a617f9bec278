import { locationListQuery } from '../../src/contracts/master-data/reference-fields.js';
import { defineRoutes } from '../route.js';
import { jsonContent, responses, schemaRef } from '../openapi-common.js';

export const locationSchemas = {
  Location: {
    type: 'object',
    required: ['id', 'code', 'name', 'type'],
    properties: {
      id: { type: 'string' },
      code: { type: 'string', description: 'Short code, unique within the organization.' },
      name: { type: 'string' },
      type: { type: 'string', description: 'Kind of location, upper case, for example WAREHOUSE or STORE.' },
    },
  },
};

const locationList = { type: 'array', items: schemaRef('Location') };

export const locationRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/api/inventory/locations',
    operation: `query ($search: String) { locations(search: $search) { id code name type } }`,
    input: { query: locationListQuery },
    variables: ({ query }) => ({ search: query.search }),
    // The interface shows both a named list and a `data` list for similar endpoints; answer both.
    result: ({ locations }) => ({ locations, data: locations }),
    doc: {
      operationId: 'listLocations',
      summary: 'List locations',
      description: 'The organization\'s locations in code order. `locations` and `data` hold the same list.',
      tags: ['Inventory'],
      responses: responses(
        {
          200: {
            description: 'The locations',
            ...jsonContent({ type: 'object', required: ['locations', 'data'], properties: { locations: locationList, data: locationList } }),
          },
        },
        [401, 403],
      ),
    },
  },
]);
