import {
  type DocumentNode,
  type FieldNode,
  getArgumentValues,
  getNamedType,
  type GraphQLField,
  type GraphQLSchema,
  isObjectType,
  TypeInfo,
  visit,
  visitWithTypeInfo,
} from 'graphql';
import { type FieldErrors, newFieldErrors, validationError } from '../kernel/errors.js';
import { BAD_CURSOR_MESSAGE, idOfCursor } from '../kernel/id-cursors.js';
import { positionOf } from './window-connection.js';

/** Largest page a connection serves unless it documents its own (`maxPageSize` in the field's extensions). */
export const MAX_PAGE_SIZE = 100;

/** Extensions of a connection field whose pages may be larger or must be smaller than MAX_PAGE_SIZE. */
export const maxPageSize = (size: number) => ({ maxPageSize: size });

/**
 * A connection over stored records pages by their text id (idOfCursor, the rule REST cursors are checked
 * with too); a connection over a computed list (`positionCursors` in its extensions) pages by position.
 */
function cursorProblem(cursor: unknown, kind: 'id' | 'position'): string | undefined {
  if (cursor === null || cursor === undefined) return undefined;
  if (kind === 'position') return positionOf(String(cursor)) === undefined ? BAD_CURSOR_MESSAGE : undefined;
  return idOfCursor(String(cursor)) === undefined ? BAD_CURSOR_MESSAGE : undefined;
}

/** A Relay connection field: it takes `after` and `before` and answers a type with `edges` and `pageInfo`. */
function isConnection(field: GraphQLField<unknown, unknown>): boolean {
  const type = getNamedType(field.type);
  const names = new Set(field.args.map((a) => a.name));
  return names.has('after') && names.has('before') && isObjectType(type) && 'edges' in type.getFields() && 'pageInfo' in type.getFields();
}

/**
 * What a connection refuses of these paging arguments, by argument. A page size over the maximum is
 * refused rather than cut to it (which Relay's helpers do silently), so a client never mistakes a cut
 * page for the whole list.
 */
function pagingProblems({ after, before, first, last }: Record<string, unknown>, max: number, kind: 'id' | 'position', details: FieldErrors) {
  const add = (name: string, message: string) => (details[name] ??= []).push(message);
  for (const [name, cursor] of [['after', after], ['before', before]] as const) {
    const problem = cursorProblem(cursor, kind);
    if (problem) add(name, problem);
  }
  for (const [name, size] of [['first', first], ['last', last]] as const) {
    if (typeof size === 'number' && size < 0) add(name, 'Must be 0 or more');
    if (typeof size === 'number' && size > max) add(name, `${name} must be at most ${max}: page on with the cursors of pageInfo`);
  }
  const together = (a: string, b: string) => `${a} and ${b} cannot be used together: page forward with first/after, backward with last/before`;
  if (after != null && before != null) add('before', together('after', 'before'));
  if (before != null && first != null) add('first', together('first', 'before'));
  if (after != null && last != null) add('last', together('last', 'after'));
}

type ConnectionField = { field: GraphQLField<unknown, unknown>; node: FieldNode };

// The connection fields of recent documents: graphql-yoga hands back the same parsed document for a query it
// has seen, so a client's repeated request judges its arguments without walking the document again.
const connectionFields = new WeakMap<DocumentNode, { schema: GraphQLSchema; fields: ConnectionField[] }>();

function connectionFieldsOf(schema: GraphQLSchema, document: DocumentNode): ConnectionField[] {
  const known = connectionFields.get(document);
  if (known?.schema === schema) return known.fields;
  const fields: ConnectionField[] = [];
  const typeInfo = new TypeInfo(schema);
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field(node) {
        const field = typeInfo.getFieldDef();
        if (field && isConnection(field)) fields.push({ field, node });
      },
    }),
  );
  connectionFields.set(document, { schema, fields });
  return fields;
}

/**
 * The one place a connection's paging arguments are judged, for every connection field of a document
 * (below Query too: a related connection is loaded with its parent's query) and these variables, before
 * anything runs: a cursor the list did not issue, a negative page size or one over the list's maximum,
 * or arguments that page both ways
 * are 400 VALIDATION_ERROR naming the argument, instead of an unexpected error from the database or an
 * error without a code. Variables GraphQL cannot coerce are left to execution, which reports them.
 */
export function assertConnectionArguments(schema: GraphQLSchema, document: DocumentNode, variables: Record<string, unknown> = {}) {
  const details = newFieldErrors();
  for (const { field, node } of connectionFieldsOf(schema, document)) {
    let args: Record<string, unknown>;
    try {
      args = getArgumentValues(field, node, variables);
    } catch {
      continue;
    }
    const max = field.extensions?.maxPageSize;
    const kind = field.extensions?.cursorKind === 'position' ? 'position' : 'id';
    pagingProblems(args, typeof max === 'number' ? max : MAX_PAGE_SIZE, kind, details);
  }
  if (Object.keys(details).length) throw validationError(details, 'Invalid paging arguments');
}
