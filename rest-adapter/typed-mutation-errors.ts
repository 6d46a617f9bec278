import {
  type DocumentNode,
  type FieldNode,
  getNamedType,
  type GraphQLSchema,
  isUnionType,
  Kind,
  type OperationDefinitionNode,
  parse,
  type SelectionSetNode,
} from 'graphql';
import { MUTATION_ERROR_INTERFACE } from '../src/schema/refusal-kinds.js';
import { refusalOfTypedError, type TypedError } from './errors.js';

/**
 * What a route selects of a typed error: what refusalOfTypedError needs to answer it as REST always has.
 * Aliased, because a result type may have fields of the same names and other types (Location.code).
 */
const ERROR_SELECTION = parse(
  `{ __typename ... on ${MUTATION_ERROR_INTERFACE} { refusalCode: code refusalMessage: message refusalFields: fields { field messages } } }`,
).definitions[0] as OperationDefinitionNode;

interface Wrapped {
  /** The field's key in `data` (its alias, else its name). */
  key: string;
  /** Whether the route selected `__typename` itself (else it is removed from a success). */
  ownTypename: boolean;
  errorTypes: Set<string>;
}

export interface TypedMutationErrors {
  /** The route's document, with each mutation field's selection narrowed to its success type and the error selected. */
  document: DocumentNode;
  /** The data as the route's selection had it; throws the REST error (a DomainError) for a typed refusal. */
  settle: (data: Record<string, unknown> | null | undefined) => Record<string, unknown> | null | undefined;
}

/**
 * Routes keep the operations they were written with: a root mutation field whose type is a union of
 * its result and the refusal types gets, once at start-up, `{ __typename ... on <Result> { <the route's
 * selection> } ... on MutationError { … } }`, and `settle` turns a refusal back into the error REST
 * answered before (through rest-adapter/errors.ts) and gives the route the result it selected.
 */
export function withTypedMutationErrors(schema: GraphQLSchema, document: DocumentNode): TypedMutationErrors {
  const mutation = schema.getMutationType();
  const wrapped: Wrapped[] = [];
  const wrapField = (node: FieldNode): FieldNode => {
    const type = getNamedType(mutation?.getFields()[node.name.value]?.type);
    if (!isUnionType(type) || !node.selectionSet) return node;
    const isError = (member: { getInterfaces(): readonly { name: string }[] }) => member.getInterfaces().some((i) => i.name === MUTATION_ERROR_INTERFACE);
    const results = type.getTypes().filter((member) => !isError(member));
    if (results.length !== 1) return node;
    wrapped.push({
      key: node.alias?.value ?? node.name.value,
      ownTypename: node.selectionSet.selections.some((s) => s.kind === Kind.FIELD && s.name.value === '__typename' && !s.alias),
      errorTypes: new Set(type.getTypes().filter(isError).map((member) => member.name)),
    });
    const result = { kind: Kind.INLINE_FRAGMENT, typeCondition: { kind: Kind.NAMED_TYPE, name: { kind: Kind.NAME, value: results[0]!.name } }, selectionSet: node.selectionSet } as const;
    // A copy for each field: graphql-jit marks the field nodes it compiles with the @skip/@include conditions
    // above them, so nodes shared between documents would carry one route's conditions into another's.
    const errors = structuredClone(ERROR_SELECTION.selectionSet);
    const selectionSet: SelectionSetNode = { ...errors, selections: [...errors.selections, result] };
    return { ...node, selectionSet };
  };
  const definitions = document.definitions.map((definition) =>
    definition.kind === Kind.OPERATION_DEFINITION && definition.operation === 'mutation'
      ? { ...definition, selectionSet: { ...definition.selectionSet, selections: definition.selectionSet.selections.map((s) => (s.kind === Kind.FIELD ? wrapField(s) : s)) } }
      : definition,
  );
  if (!wrapped.length) return { document, settle: (data) => data };

  const settle: TypedMutationErrors['settle'] = (data) => {
    if (!data) return data;
    const settled = { ...data };
    for (const { key, ownTypename, errorTypes } of wrapped) {
      const value = settled[key] as Record<string, unknown> | null | undefined;
      if (!value) continue;
      if (errorTypes.has(value.__typename as string)) {
        throw refusalOfTypedError({ code: value.refusalCode, message: value.refusalMessage, fields: value.refusalFields } as TypedError);
      }
      if (!ownTypename) {
        const { __typename: _added, ...result } = value;
        settled[key] = result;
      }
    }
    return settled;
  };
  return { document: { ...document, definitions }, settle };
}
