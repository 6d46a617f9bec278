import { locationListQuery } from '../../src/contracts/master-data/reference-fields.js';
import { defineRoutes } from '../route.js';
import { jsonContent, responses } from '../openapi-common.js';
import { locationList } from './location-responses.js';

export const locationRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/api/inventory/locations',
    operation: `query ($search: String) { allLocations(search: $search) { id code name type } }`,
    input: { query: locationListQuery },
    variables: ({ query }) => ({ search: query.search }),
    // The interface shows both a named list and a `data` list for similar endpoints; answer both.
    result: ({ allLocations: locations }) => ({ locations, data: locations }),
    doc: {
      operationId: 'listLocations',
      summary: 'List locations',
      description: 'The organization\'s locations in code order. `locations` and `data` hold the same list.',
      tags: ['Inventory'],
      responses: responses(
        {
          200: {
            description: 'The locations',
            ...jsonContent(locationList),
          },
        },
        [401, 403],
      ),
    },
  },
]);
