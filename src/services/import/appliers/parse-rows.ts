import type { z } from 'zod';
import { fieldErrors } from '../../../contracts/parse.js';
import type { ImportRow, RowRejection } from '../jobs/kinds.js';

/** A row its contract accepted, with its position in the request. */
export interface ParsedRow<T> {
  rowNumber: number;
  data: T;
}

/**
 * Parses each row of a chunk with its kind's row contract (src/contracts/import/): the valid rows with
 * their parsed data, and the rejections of the others, each naming the field by its path in the row
 * (`lines.2.sku`, line indexes from 0; `_` for the row as a whole). `firstProblemOnly` reports one problem
 * per row (the first, in field order) where a kind has always answered so; otherwise every problem.
 */
export function parseRows<S extends z.ZodType>(
  contract: S,
  rows: ImportRow[],
  { firstProblemOnly = false }: { firstProblemOnly?: boolean } = {},
): { valid: ParsedRow<z.output<S>>[]; rejections: RowRejection[] } {
  const valid: ParsedRow<z.output<S>>[] = [];
  const rejections: RowRejection[] = [];
  for (const { rowNumber, data } of rows) {
    // The row contracts word every problem themselves: no error map per parse (it costs a third of the parse).
    const result = contract.safeParse(data);
    if (result.success) {
      valid.push({ rowNumber, data: result.data });
      continue;
    }
    for (const [field, messages] of Object.entries(fieldErrors(result.error))) {
      for (const message of firstProblemOnly ? messages.slice(0, 1) : messages) rejections.push({ rowNumber, field, message });
      if (firstProblemOnly) break;
    }
  }
  return { valid, rejections };
}
