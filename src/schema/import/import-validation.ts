import { builder } from '../builder.js';
import { DRY_RUN_ERRORS } from '../../kernel/import-limits.js';
import { type ImportValidation, validateImport } from '../../services/import/jobs/import-dry-run.js';
import type { RowRejection } from '../../services/import/jobs/kinds.js';
import { ImportKindEnum } from './import-job.js';

const ImportValidationErrorRef = builder.objectRef<RowRejection>('ImportValidationRowError').implement({
  description: 'Why the import would reject one row: the same fields as ImportRowError.',
  fields: (t) => ({
    row: t.exposeInt('rowNumber', { description: 'Position of the row in its request, from 1.' }),
    rowNumber: t.exposeInt('rowNumber', { description: 'The same as row.' }),
    field: t.string({ nullable: true, description: 'Row field at fault ("_" for the row as a whole), when known.', resolve: (e) => e.field ?? null }),
    message: t.exposeString('message', { description: 'What is wrong with the row.' }),
  }),
});

const ImportValidationRef = builder.objectRef<ImportValidation>('ImportValidation').implement({
  description: 'What an import of these rows would do with each, found by a dry run that wrote nothing (no job, no data).',
  fields: (t) => ({
    kind: t.expose('kind', { type: ImportKindEnum, description: 'What the rows describe.' }),
    totalRows: t.exposeInt('totalRows', { description: 'Rows in the request.' }),
    validRows: t.exposeInt('validRows', { description: 'Rows the import would apply.' }),
    rejectedRows: t.exposeInt('rejectedRows', { description: 'Rows the import would reject (see rowErrors).' }),
    errorCount: t.exposeInt('errorCount', { description: 'Row errors in all (a row may have several).' }),
    rowErrors: t.field({
      type: [ImportValidationErrorRef],
      description: `Row errors in row order, the first \`first\` of them (the dry run keeps the first ${DRY_RUN_ERRORS}).`,
      args: { first: t.arg.int({ description: `How many (default 100, at most ${DRY_RUN_ERRORS}).` }) },
      resolve: (v, args) => v.errors.slice(0, Math.max(0, Math.min(args.first ?? 100, DRY_RUN_ERRORS))),
    }),
  }),
});

builder.mutationFields((t) => ({
  validateImport: t.field({
    refusals: ['ValidationError'],
    type: ImportValidationRef,
    description:
      'A dry run of startImport: judges every row as the import would (row contract, references in the organization, the rules of the stored data) and writes nothing. The same body rules and row limit as startImport.',
    authScopes: { permission: 'import.write' },
    args: {
      kind: t.arg({ type: ImportKindEnum, required: true, description: 'What the rows describe.' }),
      rows: t.arg({ type: 'JSON', required: true, description: 'A JSON array of rows (or an object {rows: [...]}), as for startImport.' }),
    },
    resolve: (_parent, args, ctx) => validateImport(ctx, args.kind, args.rows),
  }),
}));
