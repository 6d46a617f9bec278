// The queries and mutations every reference table (locations, channels, categories) offers, built
// from one description so that the three stay alike.
import type { z } from 'zod';
import type { RequestContext } from '../../context.js';
import type { Permission } from '../../auth/permissions.js';
import type { Query } from '../../services/master-data/master-data.js';
import { builder } from '../builder.js';
import { contractInput, parseInput } from '../contract-input.js';

type Model = 'Location' | 'Channel' | 'Category';

interface Service<Row> {
  /** Code or name: unique within the organization, and the list order. */
  uniqueField: string;
  list(ctx: RequestContext, search: string | null | undefined, query: Query): Promise<Row[]>;
  count(ctx: RequestContext, search: string | null | undefined): Promise<number>;
  get(ctx: RequestContext, id: string, query: Query): Promise<Row>;
  create(ctx: RequestContext, input: never): Promise<Row>;
  update(ctx: RequestContext, id: string, input: never, query: Query): Promise<Row>;
  remove(ctx: RequestContext, id: string, query: Query): Promise<Row>;
  /** The contracts of create and update: the inputs are generated from them and parsed with them. */
  contracts: { create: z.ZodType; update: z.ZodType };
}

export interface MasterDataFields<Row> {
  model: Model;
  /** Field names: `location` gives location, locations, createLocation, updateLocation, deleteLocation. */
  singular: string;
  plural: string;
  read: Permission;
  write: Permission;
  searchDescription: string;
  service: Service<Row>;
  /**
   * The whole list in one answer, for a REST path that documents an unpaged array: the field's name and
   * the path. Marked deprecated in the schema so GraphQL clients use the connection.
   */
  restList?: { field: string; path: string };
}

const capital = (word: string) => word[0]!.toUpperCase() + word.slice(1);

export function defineMasterDataFields<Row>(spec: MasterDataFields<Row>) {
  const { model, singular, service } = spec;
  const Name = capital(singular);
  const idArg = { required: true, description: `${Name} id.` } as const;
  const { contracts } = service;
  builder.prismaObjectFields(model, (t) => ({
    id: t.exposeID('id', { description: 'Identifier.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: `When the ${singular} was created.` }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: `When the ${singular} was last changed.` }),
  }));
  const createInput = contractInput(`${model}CreateInput`, contracts.create, { description: `A new ${singular}.` });
  const updateInput = contractInput(`${model}UpdateInput`, contracts.update, { description: `Changes to a ${singular}; absent fields stay as they are.` });

  builder.queryFields((t) => ({
    [spec.plural]: t.prismaConnection({
      type: model,
      cursor: 'id',
      description: `The organization's ${spec.plural}, in ${service.uniqueField} order, as a Relay connection.`,
      authScopes: { permission: spec.read },
      args: { search: t.arg.string({ description: spec.searchDescription }) },
      totalCount: (_parent, args, ctx) => service.count(ctx, args.search),
      resolve: (query, _parent, args, ctx) => service.list(ctx, args.search, query) as never,
    }),
    ...(spec.restList && {
      [spec.restList.field]: t.prismaField({
        type: [model],
        description: `REST adapter's shape (${spec.restList.path}): every ${singular} of the organization in one list, in ${service.uniqueField} order.`,
        deprecationReason: `The REST adapter's unpaged list (${spec.restList.path}); GraphQL clients use the connection \`${spec.plural}\`.`,
        authScopes: { permission: spec.read },
        args: { search: t.arg.string({ description: spec.searchDescription }) },
        resolve: (query, _parent, args, ctx) => service.list(ctx, args.search, query) as never,
      }),
    }),
    [singular]: t.prismaField({
      type: model,
      description: `One ${singular} by id; null when it is unknown or not the organization's.`,
      orNullWhenAbsent: true,
      authScopes: { permission: spec.read },
      args: { id: t.arg.id(idArg) },
      resolve: (query, _parent, args, ctx) => service.get(ctx, String(args.id), query) as never,
    }),
  }));

  builder.mutationFields((t) => ({
    [`create${Name}`]: t.prismaField({
      type: model,
      description: `Creates a ${singular}.`,
      refusals: ['ValidationError'],
      authScopes: { permission: spec.write },
      args: { input: t.arg({ type: createInput, required: true, description: `The ${singular}.` }) },
      resolve: (_query, _parent, args, ctx) => service.create(ctx, parseInput(contracts.create, args.input) as never) as never,
    }),
    [`update${Name}`]: t.prismaField({
      type: model,
      description: `Changes a ${singular}; absent fields stay as they are.`,
      refusals: ['ValidationError', 'NotFoundError'],
      authScopes: { permission: spec.write },
      args: { id: t.arg.id(idArg), input: t.arg({ type: updateInput, required: true, description: 'The changes.' }) },
      resolve: (query, _parent, args, ctx) => service.update(ctx, String(args.id), parseInput(contracts.update, args.input) as never, query) as never,
    }),
    [`delete${Name}`]: t.prismaField({
      type: model,
      description: `Deletes a ${singular} and returns it as it was.`,
      // Nothing refuses a delete in use yet (no `inUse` check): add ConflictError with the first.
      refusals: ['NotFoundError'],
      authScopes: { permission: spec.write },
      args: { id: t.arg.id(idArg) },
      resolve: (query, _parent, args, ctx) => service.remove(ctx, String(args.id), query) as never,
    }),
  }));
}
