import { defineRoutes, stringParam } from '../route.js';
import { jsonContent, queryParam, responses, schemaRef } from '../openapi-common.js';

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
    variables: ({ query }) => ({ search: stringParam(query.search) }),
    // The interface shows both a named list and a `data` list for similar endpoints; answer both.
    result: ({ locations }) => ({ locations, data: locations }),
    doc: {
      operationId: 'listLocations',
      summary: 'List locations',
      description: 'The organization\'s locations in code order. `locations` and `data` hold the same list.',
      tags: ['Inventory'],
      parameters: [queryParam('search', 'Case-insensitive match on location code or name')],
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
