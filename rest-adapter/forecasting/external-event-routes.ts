import { boolParam, defineRoutes, type RouteSpec, stringParam } from '../route.js';
import { errorResponses, jsonContent, pathParam, queryParam, responses, schemaRef } from '../openapi-common.js';

const EVENT = `id name type startsAt endsAt value { liftPct stackingMode description } isGlobal isOrgWide
  productMaster { id name sku } location { id name code } createdAt`;

const EVENT_TYPES = ['PROMOTION', 'PRICE_CHANGE', 'HOLIDAY', 'WEATHER', 'BOOKING', 'MACRO', 'OTHER'];
const CAPABILITY = 'ai.forecasting.demand';

const scopeText = {
  isGlobal: 'True when the event applies to every product of the organization (no productMaster). Events never reach other organizations.',
  isOrgWide: 'True when the event applies at every location of the organization (no location).',
};

const valueInput = {
  type: ['object', 'null'],
  additionalProperties: false,
  properties: {
    liftPct: { type: ['number', 'null'], minimum: -0.99, maximum: 5, description: 'Demand change as a fraction (0.2 = +20 %).' },
    stackingMode: { type: ['string', 'null'], enum: ['MULTIPLICATIVE', 'ADDITIVE', null], description: 'Default MULTIPLICATIVE when liftPct is given.' },
    description: { type: ['string', 'null'], maxLength: 2000 },
  },
};

const inputProperties = {
  name: { type: 'string', minLength: 1, maxLength: 300 },
  type: { type: 'string', enum: EVENT_TYPES },
  startsAt: { type: 'string', format: 'date-time' },
  endsAt: { type: 'string', format: 'date-time', description: 'Not before startsAt.' },
  value: valueInput,
  productMasterId: { type: ['string', 'null'], description: 'The one product the event is limited to (a product of the organization); leave out for every product.' },
  locationId: { type: ['string', 'null'], description: 'The one location the event is limited to (a location of the organization); leave out for every location.' },
  isGlobal: { type: ['boolean', 'null'], description: 'Optional; follows productMasterId (true without one). A contradicting value is a 400.' },
  isOrgWide: { type: ['boolean', 'null'], description: 'Optional; follows locationId (true without one). A contradicting value is a 400.' },
};

export const forecastEventSchemas = {
  ExternalEvent: {
    type: 'object',
    required: ['id', 'name', 'type', 'startsAt', 'endsAt', 'value', 'isGlobal', 'isOrgWide', 'productMaster', 'location', 'createdAt'],
    properties: {
      id: { type: 'string' },
      name: { type: 'string' },
      type: { type: 'string', enum: EVENT_TYPES },
      startsAt: { type: 'string', format: 'date-time' },
      endsAt: { type: 'string', format: 'date-time' },
      value: {
        type: ['object', 'null'],
        description: 'The effect on demand, or null when none is recorded.',
        properties: {
          liftPct: { type: ['number', 'null'], minimum: -0.99, maximum: 5 },
          stackingMode: { type: ['string', 'null'], enum: ['MULTIPLICATIVE', 'ADDITIVE', null] },
          description: { type: ['string', 'null'] },
        },
      },
      isGlobal: { type: 'boolean', description: scopeText.isGlobal },
      isOrgWide: { type: 'boolean', description: scopeText.isOrgWide },
      productMaster: {
        type: ['object', 'null'],
        properties: { id: { type: 'string' }, name: { type: 'string' }, sku: { type: 'string' } },
      },
      location: {
        type: ['object', 'null'],
        properties: { id: { type: 'string' }, name: { type: 'string' }, code: { type: 'string' } },
      },
      createdAt: { type: 'string', format: 'date-time' },
    },
  },
  ExternalEventCreate: {
    type: 'object',
    required: ['name', 'type', 'startsAt', 'endsAt'],
    additionalProperties: false,
    properties: inputProperties,
  },
  ExternalEventUpdate: {
    type: 'object',
    additionalProperties: false,
    description: 'Absent fields stay as they are; value is replaced as a whole; null clears value, productMasterId or locationId.',
    properties: inputProperties,
  },
};

// Forecast endpoints answer 403 FEATURE_NOT_ENABLED when the plan lacks the capability.
const forbidden = {
  description: `Not allowed: INSUFFICIENT_SCOPE or FORBIDDEN, or FEATURE_NOT_ENABLED when the organization's plan lacks ${CAPABILITY}`,
  ...jsonContent(schemaRef('ForbiddenError')),
};

const withForbidden = (success: Record<string, unknown>, errors: (keyof typeof errorResponses)[]) => ({
  ...responses(success, errors),
  403: forbidden,
});

const eventResponse = (description: string) => ({ description, ...jsonContent(schemaRef('ExternalEvent')) });
const eventList = { type: 'array', items: schemaRef('ExternalEvent') };
const idParam = pathParam('id', 'Event id');
const forecasting = { tags: ['Forecasting'] };

const UPDATE_OPERATION = `mutation ($id: ID!, $input: ExternalEventUpdateInput!) { updateExternalEvent(id: $id, input: $input) { ${EVENT} } }`;

const updateRoute = (method: 'PUT' | 'PATCH'): RouteSpec => ({
  method,
  path: '/api/forecast/events/:id',
  operation: UPDATE_OPERATION,
  variables: ({ params, body }) => ({ id: params.id, input: body }),
  result: (data) => data.updateExternalEvent,
  doc: {
    operationId: method === 'PUT' ? 'replaceExternalEvent' : 'updateExternalEvent',
    summary: 'Update an external event',
    description: `Partial update${method === 'PUT' ? ' (the same as PATCH)' : ''}: absent fields stay as they are.`,
    ...forecasting,
    parameters: [idParam],
    requestBody: { required: true, ...jsonContent(schemaRef('ExternalEventUpdate')) },
    responses: withForbidden({ 200: eventResponse('The changed event') }, [400, 401, 404]),
  },
});

export const forecastEventRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/api/forecast/events',
    operation: `query ($from: DateTime, $to: DateTime, $productMasterId: ID, $locationId: ID, $type: ExternalEventType,
      $includeGlobal: Boolean, $includeOrgWide: Boolean) {
      externalEvents(from: $from, to: $to, productMasterId: $productMasterId, locationId: $locationId, type: $type,
        includeGlobal: $includeGlobal, includeOrgWide: $includeOrgWide) { ${EVENT} }
    }`,
    variables: ({ query }) => ({
      from: stringParam(query.from),
      to: stringParam(query.to),
      productMasterId: stringParam(query.productMasterId),
      locationId: stringParam(query.locationId),
      type: stringParam(query.type),
      includeGlobal: boolParam(query.includeGlobal),
      includeOrgWide: boolParam(query.includeOrgWide),
    }),
    // Other lists of the interface come both as a named list and as `data`; answer both.
    result: ({ externalEvents }) => ({ events: externalEvents, data: externalEvents }),
    doc: {
      operationId: 'listExternalEvents',
      summary: 'List external events',
      description:
        'Events overlapping the window [from, to], soonest first. A productMasterId keeps that product\'s events and the global ones; ' +
        'a locationId keeps that location\'s events and the org-wide ones. `events` and `data` hold the same list.',
      ...forecasting,
      parameters: [
        queryParam('from', 'Window start (default: the start of today, UTC)', { type: 'string', format: 'date-time' }),
        queryParam('to', 'Window end (default: from plus 90 days); not before from', { type: 'string', format: 'date-time' }),
        queryParam('productMasterId', "Only this product's events, plus global ones unless includeGlobal=false"),
        queryParam('locationId', "Only this location's events, plus org-wide ones unless includeOrgWide=false"),
        queryParam('type', 'Only events of this kind', { type: 'string', enum: EVENT_TYPES }),
        queryParam('includeGlobal', 'Include events for every product (isGlobal)', { type: 'boolean', default: true }),
        queryParam('includeOrgWide', 'Include events for every location (isOrgWide)', { type: 'boolean', default: true }),
      ],
      responses: withForbidden(
        {
          200: {
            description: 'The events',
            ...jsonContent({ type: 'object', required: ['events', 'data'], properties: { events: eventList, data: eventList } }),
          },
        },
        [400, 401],
      ),
    },
  },
  {
    method: 'POST',
    path: '/api/forecast/events',
    operation: `mutation ($input: ExternalEventCreateInput!) { createExternalEvent(input: $input) { ${EVENT} } }`,
    variables: ({ body }) => ({ input: body }),
    result: (data) => data.createExternalEvent,
    status: 201,
    doc: {
      operationId: 'createExternalEvent',
      summary: 'Create an external event',
      ...forecasting,
      requestBody: { required: true, ...jsonContent(schemaRef('ExternalEventCreate')) },
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
      ...forecasting,
      parameters: [idParam],
      responses: withForbidden(
        {
          200: {
            description: 'The event was deleted',
            ...jsonContent({
              type: 'object',
              required: ['success', 'message'],
              properties: { success: { type: 'boolean', enum: [true] }, message: { type: 'string' } },
            }),
          },
        },
        [401, 404],
      ),
    },
  },
]);
