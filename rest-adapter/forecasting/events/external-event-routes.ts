import { externalEventCreate, externalEventListQuery, externalEventUpdate } from '../../../src/contracts/forecasting/events/external-event.js';
import { defineRoutes, type RouteSpec } from '../../route.js';
import { jsonContent, pathParam } from '../../openapi-common.js';
import { externalEvent, externalEventDeleted, externalEventList } from './external-event-responses.js';
import { forecasting, withForbidden } from '../forecast-docs.js';

const EVENT = `id name type startsAt endsAt value { liftPct stackingMode description } bookedQuantity isGlobal isOrgWide
  productMaster { id name sku } location { id name code } createdAt`;

const eventResponse = (description: string) => ({ description, ...jsonContent(externalEvent) });
const idParam = pathParam('id', 'Event id');

const UPDATE_OPERATION = `mutation ($id: ID!, $input: ExternalEventUpdateInput!) { updateExternalEvent(id: $id, input: $input) { ${EVENT} } }`;

const updateRoute = (method: 'PUT' | 'PATCH'): RouteSpec => ({
  method,
  path: '/api/forecast/events/:id',
  operation: UPDATE_OPERATION,
  input: { body: externalEventUpdate },
  variables: ({ params, body }) => ({ id: params.id, input: body }),
  result: (data) => data.updateExternalEvent,
  doc: {
    operationId: method === 'PUT' ? 'replaceExternalEvent' : 'updateExternalEvent',
    summary: 'Update an external event',
    description: `Partial update${method === 'PUT' ? ' (the same as PATCH)' : ''}: absent fields stay as they are. The BOOKING event of a confirmed wholesale booking (bookedQuantity set) follows its booking: 409 INVALID_STATE.`,
    ...forecasting,
    parameters: [idParam],
    responses: withForbidden({ 200: eventResponse('The changed event') }, [400, 401, 404, 409]),
  },
});

export const forecastEventRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/api/forecast/events',
    operation: `query ($from: DateTime, $to: DateTime, $productMasterId: ID, $locationId: ID, $type: ExternalEventType,
      $includeGlobal: Boolean, $includeOrgWide: Boolean) {
      allExternalEvents(from: $from, to: $to, productMasterId: $productMasterId, locationId: $locationId, type: $type,
        includeGlobal: $includeGlobal, includeOrgWide: $includeOrgWide) { ${EVENT} }
    }`,
    input: { query: externalEventListQuery },
    variables: ({ query }) => query,
    // Other lists of the interface come both as a named list and as `data`; answer both.
    result: ({ allExternalEvents }) => ({ events: allExternalEvents, data: allExternalEvents }),
    doc: {
      operationId: 'listExternalEvents',
      summary: 'List external events',
      description:
        'Events overlapping the window [from, to], soonest first. A productMasterId keeps that product\'s events and the global ones; ' +
        'a locationId keeps that location\'s events and the org-wide ones; either one not of the organization is 404. `events` and `data` hold the same list.',
      ...forecasting,
      responses: withForbidden(
        {
          200: {
            description: 'The events',
            ...jsonContent(externalEventList),
          },
        },
        [400, 401, 404],
      ),
    },
  },
  {
    method: 'POST',
    path: '/api/forecast/events',
    operation: `mutation ($input: ExternalEventCreateInput!) { createExternalEvent(input: $input) { ${EVENT} } }`,
    input: { body: externalEventCreate },
    variables: ({ body }) => ({ input: body }),
    result: (data) => data.createExternalEvent,
    status: 201,
    doc: {
      operationId: 'createExternalEvent',
      summary: 'Create an external event',
      ...forecasting,
      responses: withForbidden({ 201: eventResponse('The new event') }, [400, 401]),
    },
  },
  {
    method: 'GET',
    path: '/api/forecast/events/:id',
    operation: `query ($id: ID!) { externalEvent(id: $id) { ${EVENT} } }`,
    variables: ({ params }) => ({ id: params.id }),
    result: (data) => data.externalEvent,
    doc: {
      operationId: 'getExternalEvent',
      summary: 'Get an external event',
      ...forecasting,
      parameters: [idParam],
      responses: withForbidden({ 200: eventResponse('The event') }, [401, 404]),
    },
  },
  updateRoute('PUT'),
  updateRoute('PATCH'),
  {
    method: 'DELETE',
    path: '/api/forecast/events/:id',
    operation: `mutation ($id: ID!) { deleteExternalEvent(id: $id) { id } }`,
    variables: ({ params }) => ({ id: params.id }),
    result: () => ({ success: true, message: 'Event deleted' }),
    doc: {
      operationId: 'deleteExternalEvent',
      summary: 'Delete an external event',
      description: 'The BOOKING event of a confirmed wholesale booking (bookedQuantity set) follows its booking: 409 INVALID_STATE (cancel the booking instead).',
      ...forecasting,
      parameters: [idParam],
      responses: withForbidden(
        {
          200: {
            description: 'The event was deleted',
            ...jsonContent(externalEventDeleted),
          },
        },
        [401, 404, 409],
      ),
    },
  },
]);
