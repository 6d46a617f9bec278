import type { ImportKind } from '../../src/generated/prisma/enums.js';
import { IMPORT_PATHS, IMPORTABLE_KINDS } from '../../src/kernel/import-kinds.js';
import { CHUNK_LINES, CHUNK_SIZE, CHUNK_SIZES, DRY_RUN_ERRORS, ENVELOPE_ERRORS, LINED_KINDS, MAX_BODY_BYTES, MAX_ROWS } from '../../src/kernel/import-limits.js';
import { MAX_YEAR, MIN_YEAR } from '../../src/kernel/input-limits.js';
import { z } from 'zod';
import { catalogRow } from '../../src/contracts/import/catalog-row.js';
import { importBody } from '../../src/contracts/import/import-body.js';
import { importQuery } from '../../src/contracts/import/import-query.js';
import { IMPORT_JOBS_DEFAULT_LIMIT, IMPORT_JOBS_MAX_LIMIT, importJobListQuery } from '../../src/contracts/import/import-job-list.js';
import { inventoryRow } from '../../src/contracts/import/inventory-row.js';
import { jsonSchemaOf } from '../../src/contracts/json-schema.js';
import { type ImportRowDocs, SUPPLY_IMPORT_ROW_DOCS } from './supply-row-docs.js';
import { payloadTooLargeBody } from '../common-responses.js';
import { jsonContent, pathParam, responses, schemaRef } from '../openapi-common.js';
import { importJob, importJobList, importValidation } from './import-responses.js';
import { defineRoutes, type RouteSpec } from '../route.js';

const JOB = `id kind state totalRows processedRows rejectedRows errorCount rowErrors(first: ${ENVELOPE_ERRORS}) { row field message }
  failureReason createdAt startedAt completedAt`;

const VALIDATION = `kind totalRows validRows rejectedRows errorCount rowErrors(first: ${DRY_RUN_ERRORS}) { row field message }`;

const validation = (v: any) => ({
  dryRun: true,
  kind: v.kind,
  totalRows: v.totalRows,
  validRows: v.validRows,
  rejectedRows: v.rejectedRows,
  errors: v.rowErrors,
  errorCount: v.errorCount,
});

const statusUrl = (jobId: string) => `/api/import/status/${jobId}`;

/** The job envelope every import route answers with. */
const envelope = (job: any) => ({
  jobId: job.id,
  id: job.id,
  kind: job.kind,
  state: job.state,
  status: job.state,
  totalRows: job.totalRows,
  processedRows: job.processedRows,
  rejectedRows: job.rejectedRows,
  errors: job.rowErrors,
  errorCount: job.errorCount,
  createdAt: job.createdAt,
  startedAt: job.startedAt,
  completedAt: job.completedAt,
  failureReason: job.failureReason,
  statusUrl: statusUrl(job.id),
});

const LIMITS = `Limits: at most ${MAX_ROWS.toLocaleString('en-US')} rows per request and a body of at most ${MAX_BODY_BYTES / 1024 / 1024} MB; beyond either the answer is 413 PAYLOAD_TOO_LARGE (split the file into several requests).`;
const DRY_RUN = `With ?dryRun=true nothing is written (no job, no data): every row is judged as the import would judge it (its contract, SKUs, locations and suppliers of the organization, the rules of the stored data such as an inventory row's onHand against the units held) and the answer is 200 with totalRows, validRows, rejectedRows, errorCount and the first ${DRY_RUN_ERRORS} errors; the same body rules and limits apply. A row the database itself would refuse (field _) is not foreseen.`;
const BODY = `The body is a JSON array of rows, or an object {"rows": [...]}. The rows are stored at once (202 Accepted with the job envelope) and applied in chunks by the server's workers, each chunk committed together with its checkpoint (a server stopped mid-job resumes at the first unfinished chunk, no row applied twice); poll statusUrl for progress. A row with bad data is rejected with its row number (1-based, in the request), field and reason, while the good rows go in. Numbers may also be sent as numeric strings (CSV); they must be finite and in range (a number too large for a double, such as 1e309, rejects its row), dates are in the years ${MIN_YEAR} to ${MAX_YEAR}. Text with the NUL character or a lone surrogate anywhere in the rows refuses the whole request (400 VALIDATION_ERROR naming <row index>.<field>, rows from 0). A row the database refuses for another reason is rejected alone (field _) and the rest of its chunk applied. ${LIMITS}`;

/** Words for each kind and its row contract; a kind gets a POST route once it has an applier (IMPORTABLE_KINDS). */
const ROW_DOCS: Partial<Record<ImportKind, ImportRowDocs>> = {
  CATALOG: {
    summary: 'Import catalog rows (products)',
    description: 'Upserts products by externalId (the SKU): a new product is created, an existing one updated (absent fields keep their values), never duplicated. Within one request the last row of an externalId wins.',
    row: catalogRow,
  },
  INVENTORY: {
    summary: 'Import inventory level rows (stock on hand, reserved, thresholds)',
    description:
      "Sets the product's stock at the location (the line without lot or bin) to the given absolute quantities through the stock ledger: each change writes ledger rows of transaction type IMPORT (GET /api/inventory/adjustments?bucket=ALL lists them), one set per row even when several rows name the same line (they apply in row order); nothing changes and no ledger row is written when the quantities are already those. threshold sets the inventory level's minimum quantity (reorder and maximum quantities are raised to it when lower; the level is created when missing). Unknown SKU or location, reserved above onHand, or onHand below what is held, picked, recalled or expired: the row is rejected.",
    row: inventoryRow,
  },
  ...SUPPLY_IMPORT_ROW_DOCS,
};

/** The row schemas of the import bodies, one per kind with an applier, generated from its row contract. */
export const importSchemas: Record<string, unknown> = {};

const jobResponse = (description: string) => ({ description, ...jsonContent(importJob) });

function postRoute(path: string, kind: ImportKind): RouteSpec {
  const docs = ROW_DOCS[kind];
  if (!docs) throw new Error(`import kind ${kind} has an applier but no row contract here`);
  const chunk = `Chunk size for this kind: ${(CHUNK_SIZES[kind] ?? CHUNK_SIZE).toLocaleString('en-US')} rows${LINED_KINDS.has(kind) ? `, or fewer so that a chunk holds at most ${CHUNK_LINES.toLocaleString('en-US')} lines (an order is never split)` : ''}.`;
  const rowSchema = `Import${kind.toLowerCase().replace(/(^|_)(\w)/g, (_, __, c: string) => c.toUpperCase())}Row`;
  importSchemas[rowSchema] = jsonSchemaOf(docs.row, 'input');
  return {
    method: 'POST',
    path: `/api/import/${path}`,
    // One operation for both answers: the dry run's field or the import's, chosen by the variable.
    operation: `mutation ($kind: ImportKind!, $rows: JSON!, $dryRun: Boolean!) {
      startImport(kind: $kind, rows: $rows) @skip(if: $dryRun) { ${JOB} }
      validateImport(kind: $kind, rows: $rows) @include(if: $dryRun) { ${VALIDATION} }
    }`,
    // The body's envelope is checked at the door; each row is judged by its contract when its chunk is applied (or by the dry run).
    input: { query: importQuery, body: importBody(z.unknown().meta(schemaRef(rowSchema))) },
    variables: ({ query, body }) => ({ kind, rows: body, dryRun: query.dryRun === true }),
    result: (data) => (data.validateImport ? validation(data.validateImport) : envelope(data.startImport)),
    status: ({ query }) => (query.dryRun === true ? 200 : 202),
    maxBodyBytes: MAX_BODY_BYTES,
    doc: {
      operationId: `import${path.replace(/(^|-)(\w)/g, (_, __, c: string) => c.toUpperCase())}`,
      summary: docs.summary,
      description: `${docs.description} ${BODY} ${DRY_RUN} ${chunk}`.trim(),
      tags: ['Import'],
      responses: {
        ...responses(
          {
            200: { description: 'With dryRun=true: what the import would do with each row; nothing was written', ...jsonContent(importValidation) },
            202: jobResponse('Rows stored; the job is PENDING'),
          },
          [400, 401, 403],
        ),
        413: {
          description: `PAYLOAD_TOO_LARGE: a body over ${MAX_BODY_BYTES} bytes (the body has maxBodyBytes) or more than ${MAX_ROWS} rows (the body has maxRows and rows)`,
          ...jsonContent(payloadTooLargeBody),
        },
      },
    },
  };
}

export const importRoutes = defineRoutes([
  ...Object.entries(IMPORT_PATHS)
    .filter(([, kind]) => (IMPORTABLE_KINDS as readonly ImportKind[]).includes(kind))
    .map(([path, kind]) => postRoute(path, kind)),
  {
    method: 'GET',
    path: '/api/import/jobs',
    operation: `query ($status: ImportJobState, $kind: ImportKind, $from: String, $to: String, $first: Int, $after: String, $last: Int, $before: String) {
      importJobs(status: $status, kind: $kind, from: $from, to: $to, first: $first, after: $after, last: $last, before: $before) {
        edges { node { ${JOB} } }
        pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
      }
    }`,
    input: { query: importJobListQuery },
    variables: ({ query: { limit, cursor, before, ...filter } }) => ({ ...filter, ...(before ? { last: limit, before } : { first: limit, after: cursor }) }),
    result: ({ importJobs: { edges, pageInfo } }, { query }) => {
      const backwards = Boolean(query.before);
      const some = edges.length > 0;
      return {
        data: edges.map((edge: any) => envelope(edge.node)),
        limit: query.limit,
        nextCursor: (backwards ? some : pageInfo.hasNextPage) ? pageInfo.endCursor : null,
        previousCursor: (backwards ? pageInfo.hasPreviousPage : some && Boolean(query.cursor)) ? pageInfo.startCursor : null,
      };
    },
    doc: {
      operationId: 'listImportJobs',
      summary: "List the organization's import jobs",
      description: `Newest first; filters status, kind (any case), from and to (creation time: a date covers its whole day, UTC). Cursor paging: limit (default ${IMPORT_JOBS_DEFAULT_LIMIT}, at most ${IMPORT_JOBS_MAX_LIMIT}); pass nextCursor as cursor for the next (older) page, previousCursor as before for the previous (newer) one; a null cursor means there is no such page. Each job as GET /api/import/status/{jobId} answers it. The same permission as a job's status (import.read).`,
      tags: ['Import'],
      responses: responses({ 200: { description: 'A page of jobs', ...jsonContent(importJobList) } }, [400, 401, 403]),
    },
  },
  {
    method: 'GET',
    path: '/api/import/status/:jobId',
    operation: `query ($id: ID!) { importJob(id: $id) { ${JOB} } }`,
    variables: ({ params }) => ({ id: params.jobId }),
    result: (data) => envelope(data.importJob),
    doc: {
      operationId: 'getImportJob',
      summary: 'Status of an import job',
      description: `State, row counts, the first ${ENVELOPE_ERRORS} row errors and timestamps of one of the organization's import jobs.`,
      tags: ['Import'],
      parameters: [pathParam('jobId', 'Import job id')],
      responses: responses({ 200: jobResponse('The job') }, [401, 403, 404]),
    },
  },
]);
