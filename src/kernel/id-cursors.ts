import { textProblem } from './text-rule.js';

export const BAD_CURSOR_MESSAGE = 'Not a cursor of this list: send an endCursor, startCursor or edge cursor it returned';

const BASE64 = /^(?:[\d+/A-Za-z]{4})*(?:[\d+/A-Za-z]{2}==|[\d+/A-Za-z]{3}=)?$/;

/**
 * The record id a cursor of a connection over stored records names: the Prisma plugin writes them as
 * base64 of `GPC:S:<id>`. Undefined for anything else (a crafted number, date or JSON cursor, text that is
 * not base64, an id PostgreSQL cannot hold), which would reach the database as a malformed query.
 */
export function idOfCursor(cursor: string): string | undefined {
  if (!BASE64.test(cursor)) return undefined;
  const decoded = Buffer.from(cursor, 'base64').toString();
  if (!decoded.startsWith('GPC:S:')) return undefined;
  const id = decoded.slice('GPC:S:'.length);
  return id && !textProblem(id) ? id : undefined;
}
