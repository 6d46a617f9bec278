import {
  generateRecommendations,
  pendingRecommendationQuery,
  recommendationDecision as decisionBody,
  recommendationExecution,
  recommendationListQuery,
  GENERATED_SHOWN,
} from '../../../src/contracts/transfers/recommendations/recommendations.js';
import { dateTime, nullableString } from '../../common-responses.js';
import { jsonContent, pathParam, responses } from '../../openapi-common.js';
import { defineRoutes, type RouteSpec } from '../../route.js';
import { generatedRecommendations, recommendationDecision, recommendationEnvelope, recommendationPage } from './recommendation-responses.js';

const REC = `id productMasterId sourceLocationId destLocationId quantity priority status reason estimatedROI unitMargin unitTransferCost unitsAtRisk
  expiresAt createdAt updatedAt createdBy approvedAt approvedBy approvalComment rejectedAt rejectedBy rejectionComment executedAt executedBy transferId`;
const PAGE = `recommendations { ${REC} } total limit offset`;
const FILTER_VARS = '$priority: TransferPriority, $productMasterId: ID, $sourceLocationId: ID, $destLocationId: ID, $validOnly: Boolean, $limit: Int, $offset: Int';
const FILTER_ARGS = 'priority: $priority, productMasterId: $productMasterId, sourceLocationId: $sourceLocationId, destLocationId: $destLocationId, validOnly: $validOnly, limit: $limit, offset: $offset';

const transfers = { tags: ['Transfers'] };

const idParam = pathParam('id', 'Recommendation id');
const BASE = '/api/transfers/recommendations';

/** The list holding every recommendation a generation proposed (all PENDING), with the generation's product filter. */
const pendingListUrl = (body: unknown) => {
  const product = (body as { productMasterId?: unknown } | null)?.productMasterId;
  const filter = typeof product === 'string' && product.trim() ? `&productMasterId=${encodeURIComponent(product.trim())}` : '';
  return `${BASE}?status=PENDING${filter}`;
};

const page = ({ recommendations, ...rest }: { recommendations: unknown[] }) => ({ recommendations, ...rest, data: recommendations });
const pageResponse = (description: string) => ({ description, ...jsonContent(recommendationPage) });

const DECISIONS = {
  approve: {
    field: 'approveTransferRecommendation',
    summary: 'Approve a recommendation',
    description: 'PENDING → APPROVED: approvedAt and approvedBy are set, the comment kept. Any other state (an overdue PENDING one reads EXPIRED): 409 INVALID_STATE.',
    decision: ['approvedAt', 'approvedBy'],
    schema: 'TransferRecommendationApproval',
  },
  reject: {
    field: 'rejectTransferRecommendation',
    summary: 'Reject a recommendation',
    description: 'PENDING → REJECTED: who (rejectedBy), when (rejectedAt) and why (rejectionComment, from comment). Any other state: 409 INVALID_STATE.',
    decision: ['rejectedAt', 'rejectedBy', 'rejectionComment'],
    schema: 'TransferRecommendationRejection',
  },
  execute: {
    field: 'executeTransferRecommendation',
    summary: 'Execute an approved recommendation',
    description:
      'APPROVED → EXECUTED, exactly once, in one transaction: an inventory transfer for the quantity is created and shipped at once (the stock leaves the source ' +
      'through the ledger as TRANSFER_OUT rows and is in transit to the destination), executedAt is set and transferId links it. Any other state (a second ' +
      'execute included): 409 INVALID_STATE. Not enough available stock at the source: 400 INSUFFICIENT_STOCK with details.quantity, and it stays APPROVED. No body (or `{}`; a field in it is 400).',
    decision: ['executedAt', 'executedBy', 'transferId'],
    schema: 'TransferRecommendationExecution',
  },
} as const;

const decisionRoute = (move: keyof typeof DECISIONS): RouteSpec => {
  const spec = DECISIONS[move];
  const hasBody = move !== 'execute';
  return {
    method: 'POST',
    path: `${BASE}/:id/${move}`,
    operation: hasBody
      ? `mutation ($id: ID!, $comment: String) { ${spec.field}(id: $id, comment: $comment) { ${REC} } }`
      : `mutation ($id: ID!) { ${spec.field}(id: $id) { ${REC} } }`,
    input: { body: hasBody ? decisionBody : recommendationExecution },
    variables: ({ params, body }) => ({ id: params.id, ...(hasBody ? { comment: (body as { comment?: string } | undefined)?.comment ?? null } : {}) }),
    result: (data) => {
      const rec = data[spec.field];
      return { success: true, recommendation: Object.fromEntries(['id', 'status', ...spec.decision].map((key) => [key, rec[key]])), ...rec };
    },
    doc: {
      operationId: `${move}TransferRecommendation`,
      summary: spec.summary,
      description: spec.description,
      ...transfers,
      parameters: [idParam],
      responses: responses(
        {
          200: {
            description: `success, the ${move === 'execute' ? 'execution' : 'decision'} under recommendation, and the recommendation's fields at the top level`,
            ...jsonContent(recommendationDecision(spec.schema, Object.fromEntries(spec.decision.map((key) => [key, key.endsWith('At') ? dateTime.nullable() : nullableString])))),
          },
        },
        [400, 401, 403, 404, 409],
      ),
    },
  };
};

export const recommendationRoutes = defineRoutes([
  {
    method: 'GET',
    path: `${BASE}/pending`,
    operation: `query (${FILTER_VARS}) { pendingTransferRecommendationsPage(${FILTER_ARGS}) { ${PAGE} } }`,
    input: { query: pendingRecommendationQuery },
    variables: ({ query }) => query,
    result: ({ pendingTransferRecommendationsPage }) => page(pendingTransferRecommendationsPage),
    doc: {
      operationId: 'listPendingTransferRecommendations',
      summary: 'Pending transfer recommendations',
      description: 'The list with status PENDING (overdue ones are EXPIRED and left out), the same filters, paging and shape.',
      ...transfers,
      responses: responses({ 200: pageResponse('A page of pending recommendations') }, [400, 401, 403, 404]),
    },
  },
  {
    method: 'GET',
    path: BASE,
    operation: `query ($status: TransferRecommendationStatus, ${FILTER_VARS}) { transferRecommendationsPage(status: $status, ${FILTER_ARGS}) { ${PAGE} } }`,
    input: { query: recommendationListQuery },
    variables: ({ query }) => query,
    result: ({ transferRecommendationsPage }) => page(transferRecommendationsPage),
    doc: {
      operationId: 'listTransferRecommendations',
      summary: 'List transfer recommendations',
      description:
        'Most pressing first (URGENT … LOW), then newest. status accepts upper and lower case (pending, approved, …); an overdue PENDING recommendation is EXPIRED. ' +
        'validOnly keeps PENDING and APPROVED ones whose source has at least the quantity available today. `recommendations` (with total, limit, offset) and `data` hold the same page.',
      ...transfers,
      responses: responses({ 200: pageResponse('A page of recommendations') }, [400, 401, 403, 404]),
    },
  },
  {
    method: 'POST',
    path: BASE,
    operation: `mutation ($input: GenerateTransferRecommendationsInput) { generateTransferRecommendations(input: $input) { success created updated total recommendations { ${REC} } } }`,
    input: { body: generateRecommendations },
    variables: ({ body }) => ({ input: body }),
    result: (data, req) => ({ ...data.generateTransferRecommendations, listUrl: pendingListUrl(req.body) }),
    doc: {
      operationId: 'generateTransferRecommendations',
      summary: 'Generate transfer recommendations',
      description:
        'Per product, finds locations in deficit (available below the reorder point, or fewer days of forecast demand than the lead time) and in surplus (above the maximum, ' +
        'or more days of demand than the horizon) and proposes PENDING moves that bring destinations toward their maximum without taking a source below its reorder point ' +
        '(docs/transfers.md). A PENDING recommendation of the same product, source and destination is refreshed instead of duplicated (`updated`). An unknown or foreign ' +
        'locationId or productMasterId: 400 naming it in details. Roles ADMIN, MANAGER, PLANNER. ' +
        `The body lists at most the first ${GENERATED_SHOWN} recommendations proposed (most pressing first); \`total\` counts them all, and \`listUrl\` (the PENDING list, ` +
        'with the product filter of the generation) pages them with limit and offset.',
      ...transfers,
      responses: responses({ 200: { description: 'What was proposed', ...jsonContent(generatedRecommendations) } }, [400, 401, 403]),
    },
  },
  {
    method: 'GET',
    path: `${BASE}/:id`,
    operation: `query ($id: ID!) { transferRecommendation(id: $id) { ${REC} } }`,
    variables: ({ params }) => ({ id: params.id }),
    result: ({ transferRecommendation }) => ({ recommendation: transferRecommendation, ...transferRecommendation }),
    doc: {
      operationId: 'getTransferRecommendation',
      summary: 'Get a transfer recommendation',
      description: 'Under `recommendation` and as its own fields at the top level.',
      ...transfers,
      parameters: [idParam],
      responses: responses({ 200: { description: 'The recommendation', ...jsonContent(recommendationEnvelope) } }, [401, 403, 404]),
    },
  },
  decisionRoute('approve'),
  decisionRoute('reject'),
  decisionRoute('execute'),
]);
