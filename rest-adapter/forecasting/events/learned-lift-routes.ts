import { learnedLiftQuery } from '../../../src/contracts/forecasting/events/learned-lift-query.js';
import { defineRoutes } from '../../route.js';
import { jsonContent } from '../../openapi-common.js';
import { forecasting, withForbidden } from '../forecast-docs.js';
import { learnedLiftsBody } from './learned-lift-responses.js';

const LIFT = 'type pool productMasterId locationId liftPct lowerPct upperPct confidenceLevel occurrences weeks usable method';
const OCCURRENCE = 'eventId name type startsAt endsAt productMasterId locationId weeks actualUnits baselineUnits baselineWeeks liftPct';

// A static path under /api/forecast/events: listed before the area's /api/forecast/events/:id.
export const learnedLiftRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/api/forecast/events/learned-lifts',
    operation: `query ($type: ExternalEventType, $productMasterId: ID, $locationId: ID, $before: Date) {
      learnedEventLifts(type: $type, productMasterId: $productMasterId, locationId: $locationId, before: $before) {
        lifts { ${LIFT} } occurrences { ${OCCURRENCE} } before learnedFrom maxEvents minOccurrences method
      }
    }`,
    input: { query: learnedLiftQuery },
    variables: ({ query }) => query,
    result: ({ learnedEventLifts: { lifts, occurrences, ...meta } }) => ({ data: lifts, occurrences, meta }),
    doc: {
      operationId: 'getLearnedEventLifts',
      summary: 'Event lifts learned from history',
      description:
        "What the organization's past events teach. Each past event whose weeks lie in the demand history is an occurrence: the units " +
        'of every series it reaches (global or its product, org-wide or its location; all channels summed) over the weeks it overlaps, ' +
        'against a local baseline, the median of the nearest weeks no event reaching that scope overlaps (up to 4 on each side, within ' +
        '8 weeks; at least 2). lift = actual ÷ (baseline × weeks) − 1. An occurrence sharing a week with an event of another type that ' +
        'can reach the same series is left out. Occurrences pool by type (TYPE) and by type and link (LINK: the same product and ' +
        'location, or the same lack of one) into their median, with a distribution-free interval of the median. GET /api/forecast ' +
        'gives an event without a stated lift its LINK pool when that has meta.minOccurrences occurrences, else its TYPE pool, else ' +
        'no lift. `before` learns from the history before that week only (what a forecast with `from` does).',
      ...forecasting,
      responses: withForbidden({ 200: { description: 'The learned lifts and their occurrences', ...jsonContent(learnedLiftsBody) } }, [400, 401, 404]),
    },
  },
]);
