import { builder } from '../builder.js';

// The type of each object `node`/`nodes` answer, noted when they load it (their rows carry no typename).
const typeOfNode = new WeakMap<object, string>();

/** Notes the GraphQL type of a row `node` or `nodes` answers with, for the interface to resolve it. */
export function asNode<T extends object>(record: T, type: string): T {
  typeOfNode.set(record, type);
  return record;
}

/**
 * Relay's Node interface (Global Object Identification). The id is the entity's UUID itself, the one REST
 * answers and every argument takes; uuid v7 ids are unique across tables, so no id names two objects.
 */
export const NodeRef = builder.interfaceRef<{ id: string }>('Node').implement({
  description:
    'An entity with its own identity: refetch it with `node(id:)` or `nodes(ids:)`. The id is its UUID (the same as in the REST API and ' +
    'in every argument), unique across all types, so a client may key its cache by id alone.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Identifier: a UUID, unique across every type.' }),
  }),
  resolveType: (value) => typeOfNode.get(value) ?? null,
});
