// One implementation of list/get/create/update/delete for the organization's reference tables
// (locations, channels, categories), so each table only declares what is particular to it.
import type { z } from 'zod';
import type { DbContext, RequestContext } from '../../context.js';
import { DomainError, notFound, validationError } from '../../kernel/errors.js';
import { Prisma } from '../../generated/prisma/client.js';
import { escapeLike } from '../search.js';
import { orgId } from '../tenant.js';
import { inTransaction, type Db, type TxContext } from '../../db/transactions.js';

type Where = Record<string, unknown> & { organizationId: string };
/** Prisma query fragment from a Pothos resolver (select or include); empty for plain service calls. */
export type Query = { select?: object; include?: object };

/** The part of a Prisma model delegate these operations use. */
interface Delegate<Row> {
  findMany(args: { where: Where; orderBy: object } & Query): PromiseLike<Row[]>;
  count(args: { where: Where }): PromiseLike<number>;
  findFirst(args: { where: Where } & Query): PromiseLike<Row | null>;
  create(args: { data: object }): PromiseLike<Row>;
  updateMany(args: { where: Where; data: object }): PromiseLike<{ count: number }>;
  deleteMany(args: { where: Where }): PromiseLike<{ count: number }>;
}

export interface MasterDataSpec<Row, Create extends z.ZodType<object>, Update extends z.ZodType<object>> {
  /** Name used in messages: 'Location'. */
  label: string;
  delegate: (db: Db) => Delegate<Row>;
  /** The field unique within the organization (code or name): a clash is a 400 on it; lists are in its order. */
  uniqueField: string;
  /** The fields `search` matches, case-insensitively. */
  searchFields: string[];
  /**
   * The contracts of create and update (src/contracts/master-data/reference-inputs.ts). Values are parsed
   * where they come in (the GraphQL resolvers, the operator's door); the functions here take their output.
   */
  contracts: { create: Create; update: Update };
  /**
   * Why the row cannot be deleted (rows that still point at it), or null. Runs in the delete's
   * transaction so that a reference added meanwhile cannot slip through.
   */
  inUse?: (ctx: TxContext, id: string) => Promise<string | null>;
}

export function masterData<Row, Create extends z.ZodType<object>, Update extends z.ZodType<object>>(spec: MasterDataSpec<Row, Create, Update>) {
  const table = (ctx: RequestContext) => spec.delegate(ctx.prisma);
  const owned = (ctx: RequestContext, id: string): Where => ({ id, organizationId: orgId(ctx) });

  const duplicate = (error: unknown): never => {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
      throw validationError({ [spec.uniqueField]: [`A ${spec.label.toLowerCase()} with this ${spec.uniqueField} already exists`] });
    }
    throw error;
  };

  async function get(ctx: RequestContext, id: string, query: Query = {}) {
    const row = await table(ctx).findFirst({ ...query, where: owned(ctx, id) });
    if (!row) throw notFound(spec.label);
    return row;
  }

  function matching(ctx: RequestContext, search?: string | null): Where {
    const term = search?.trim();
    const where: Where = { organizationId: orgId(ctx) };
    if (term) where.OR = spec.searchFields.map((field) => ({ [field]: { contains: escapeLike(term), mode: 'insensitive' } }));
    return where;
  }

  /** In uniqueField order; `query` may carry a connection's cursor, skip and take (uniqueField is a total order). */
  async function list(ctx: RequestContext, search?: string | null, query: Query = {}) {
    return table(ctx).findMany({ ...query, where: matching(ctx, search), orderBy: { [spec.uniqueField]: 'asc' } });
  }

  async function count(ctx: RequestContext, search?: string | null) {
    return table(ctx).count({ where: matching(ctx, search) });
  }

  async function create(ctx: RequestContext, data: z.output<Create>) {
    return insert(ctx, orgId(ctx), data);
  }

  /** Create without a request: the operator's door (admin CLI, demo seed), in the transaction it gives. */
  async function insert(ctx: DbContext, organizationId: string, data: z.output<Create>) {
    return Promise.resolve(spec.delegate(ctx.prisma).create({ data: { ...data, organizationId } })).catch(duplicate);
  }

  async function update(ctx: RequestContext, id: string, data: z.output<Update>, query: Query = {}) {
    // The scoped updateMany keeps the write inside the tenant; no match means unknown or foreign.
    const { count } = await Promise.resolve(table(ctx).updateMany({ where: owned(ctx, id), data })).catch(duplicate);
    if (!count) throw notFound(spec.label);
    return get(ctx, id, query);
  }

  /** Deletes the row and returns it as it was (with what `query` asked for, read before deleting). */
  function remove(ctx: RequestContext, id: string, query: Query = {}) {
    return inTransaction(ctx, async (ctx) => {
      const row = await table(ctx).findFirst({ ...query, where: owned(ctx, id) });
      if (!row) throw notFound(spec.label);
      const reason = await spec.inUse?.(ctx, id);
      if (reason) throw new DomainError('INVALID_STATE', `${spec.label} cannot be deleted: ${reason}`);
      await table(ctx).deleteMany({ where: owned(ctx, id) });
      return row;
    });
  }

  return { list, count, get, create, insert, update, remove, uniqueField: spec.uniqueField, contracts: spec.contracts };
}
