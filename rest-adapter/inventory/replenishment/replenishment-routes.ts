import { replenishmentConfigQuery, replenishmentConfigUpdate } from '../../../src/contracts/inventory/replenishment/replenishment-config.js';
import { replenishmentAction, replenishmentListQuery } from '../../../src/contracts/inventory/replenishment/replenishment-records.js';
import { replenishmentSuggestionsInput } from '../../../src/contracts/inventory/replenishment/replenishment-suggestions.js';
import { RECOMMENDATION_FIELDS } from '../../planning/recommendations/planning-recommendations-routes.js';
import { defineRoutes } from '../../route.js';
import { jsonContent, responses } from '../../openapi-common.js';
import { replenishmentActionResult, replenishmentConfig, replenishmentRecordList, replenishmentSuggestionList } from './replenishment-responses.js';

const tags = ['Inventory'];

const SETTINGS = 'locationId method reviewPeriodDays safetyStockDays defaultSourceLocationId defaultSupplierId';
const RECORD = `id productMasterId locationId quantity sourceType supplierId sourceLocationId needBy reason status purchaseOrderId transferId comment
  createdAt updatedAt createdByType createdBy approvedAt approvedBy orderedAt orderedBy cancelledAt cancelledBy`;

export const replenishmentRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/api/inventory/replenishment/config',
    operation: `query ($locationId: ID!) { replenishmentConfig(locationId: $locationId) { ${SETTINGS} stored updatedAt updatedBy config { id } } }`,
    input: { query: replenishmentConfigQuery },
    variables: ({ query }) => query,
    result: ({ replenishmentConfig: { config, ...rest } }) => ({ id: config?.id ?? null, ...rest }),
    doc: {
      operationId: 'getReplenishmentConfig',
      summary: "A location's replenishment configuration",
      description:
        'The stored configuration of the location, else the defaults (stored false: MIN_MAX, reviewPeriodDays 7, safetyStockDays 0, no default source). ' +
        "A missing locationId: 400; a location that is not the organization's: 404.",
      tags,
      responses: responses({ 200: { description: 'The configuration', ...jsonContent(replenishmentConfig) } }, [400, 401, 403, 404]),
    },
  },
  {
    method: 'POST',
    path: '/api/inventory/replenishment/config',
    operation: `mutation ($input: ReplenishmentConfigInput!) { updateReplenishmentConfig(input: $input) { id ${SETTINGS} updatedAt updatedBy } }`,
    input: { body: replenishmentConfigUpdate },
    variables: ({ body }) => ({ input: body }),
    result: ({ updateReplenishmentConfig: config }) => ({ ...config, stored: true }),
    doc: {
      operationId: 'updateReplenishmentConfig',
      summary: "Store a location's replenishment configuration",
      description:
        'Body {locationId, method?, reviewPeriodDays? (1-365), safetyStockDays? (0-365), defaultSourceLocationId? | defaultSupplierId?}: absent fields keep their ' +
        'value (or the default); null clears a default source, and setting one clears the other. Needs replenishment.write and a tenant administrator ' +
        "(an ADMIN user or an API key with the * scope): 403 otherwise. A location or supplier that is not the organization's: 404.",
      tags,
      responses: responses({ 200: { description: 'The stored configuration', ...jsonContent(replenishmentConfig) } }, [400, 401, 403, 404]),
    },
  },
  {
    method: 'GET',
    path: '/api/inventory/replenishment',
    operation: `query ($locationId: ID, $productMasterId: ID, $status: String, $limit: Int, $offset: Int) {
      replenishmentRecordsPage(locationId: $locationId, productMasterId: $productMasterId, status: $status, limit: $limit, offset: $offset) { records { ${RECORD} } total limit offset }
    }`,
    input: { query: replenishmentListQuery },
    variables: ({ query }) => ({ ...query, status: query.status?.join(',') }),
    result: ({ replenishmentRecordsPage: page }) => ({ ...page, data: page.records }),
    doc: {
      operationId: 'listReplenishmentRecords',
      summary: 'List replenishment records',
      description:
        'Newest first, with filters locationId, productMasterId and status (any case, comma-separated) and limit/offset paging (default 50, at most 100). ' +
        "Ids that are not the organization's: 404.",
      tags,
      responses: responses({ 200: { description: 'A page of replenishment records', ...jsonContent(replenishmentRecordList) } }, [400, 401, 403, 404]),
    },
  },
  {
    method: 'POST',
    path: '/api/inventory/replenishment',
    operation: `mutation ($input: ReplenishmentActionInput!) { replenishmentAction(input: $input) { records { ${RECORD} } } }`,
    input: { body: replenishmentAction },
    variables: ({ body }) => ({ input: body }),
    result: ({ replenishmentAction: result }) => ({ data: result.records }),
    doc: {
      operationId: 'actOnReplenishment',
      summary: 'Create replenishment records, or approve, convert or cancel one',
      description:
        'Body {action, ...}. `create` {items: [{productMasterId, locationId, quantity, sourceType SUPPLIER|LOCATION, supplierId | sourceLocationId, needBy, reason?}]} ' +
        '(1-200 items, what a suggestion item carries): PROPOSED records, all or none. `approve` {id, comment?}: PROPOSED → APPROVED. `convert` {id, comment?}: ' +
        'APPROVED → ORDERED, making a PENDING purchase order of one line numbered RPL-nnnnnn (SUPPLIER; expected today plus the supplier\'s lead time, else on needBy) ' +
        'or a DRAFT inventory transfer (LOCATION; expected on needBy), linked as purchaseOrderId or transferId. `cancel` {id, comment?}: PROPOSED or APPROVED → CANCELLED. ' +
        "Answers {data: [the records created, or the one moved]}. A move the state does not allow: 409 INVALID_STATE; ids that are not the organization's: 404; nothing changed on a refusal.",
      tags,
      responses: responses({ 200: { description: 'The records', ...jsonContent(replenishmentActionResult) } }, [400, 401, 403, 404, 409]),
    },
  },
  {
    method: 'POST',
    path: '/api/inventory/replenishment/suggestions',
    operation: `query ($input: ReplenishmentSuggestionsInput!) {
      replenishmentSuggestions(input: $input) { locationId method reviewPeriodDays safetyStockDays supplierId sourceLocationId configStored suggestions { ${RECOMMENDATION_FIELDS} } }
    }`,
    input: { body: replenishmentSuggestionsInput },
    variables: ({ body }) => ({ input: body }),
    result: ({ replenishmentSuggestions: { suggestions, ...settings } }) => ({ ...settings, data: suggestions }),
    doc: {
      operationId: 'replenishmentSuggestions',
      summary: 'Run the projection for a location: what to order, move or expedite',
      description:
        'Body {locationId, productMasterIds? (1-1000), method?, reviewPeriodDays?, safetyStockDays?, supplierId? | sourceLocationId?}: the planning recommendations of the ' +
        "location (GET /api/planning/recommendations) run with its replenishment configuration, the body's settings overriding it for this run. Writes nothing: " +
        'ORDER and MOVE suggestions carry what POST /api/inventory/replenishment with action create takes. Needs replenishment.read. ' +
        "Ids that are not the organization's: 404.",
      tags,
      responses: responses({ 200: { description: 'The suggestions and the settings used', ...jsonContent(replenishmentSuggestionList) } }, [400, 401, 403, 404]),
    },
  },
]);
