import DataLoader from 'dataloader';
import type { RequestContext } from '../../context.js';
import { checkNodeIdCount, MAX_NODE_IDS, nodesByIds } from '../../services/node/node-lookup.js';
import { builder } from '../builder.js';
import { asNode, NodeRef } from './node-interface.js';

// One loader per request, so that several `node` fields of one document are found together.
const perRequest = new WeakMap<object, DataLoader<string, { id: string } | null>>();

function nodeLoader(ctx: RequestContext) {
  let loader = perRequest.get(ctx);
  if (!loader) {
    loader = new DataLoader(async (ids) => (await nodesByIds(ctx, ids)).map((found) => found && asNode(found.record, found.type)));
    perRequest.set(ctx, loader);
  }
  return loader;
}

builder.queryFields((t) => ({
  node: t.field({
    type: NodeRef,
    nullable: true,
    description:
      "The entity of this id (any type implementing Node); null when the id is malformed, unknown, another organization's, " +
      'or of a type the caller may not read.',
    authScopes: { authenticated: true },
    args: { id: t.arg.id({ required: true, description: 'The entity id (a UUID).' }) },
    resolve: (_parent, args, ctx) => nodeLoader(ctx).load(String(args.id)),
  }),
  nodes: t.field({
    type: [NodeRef],
    nullable: { list: false, items: true },
    description:
      `The entities of these ids, in their order, each null as \`node\` would answer null. At most ${MAX_NODE_IDS} ids ` +
      '(more: VALIDATION_ERROR).',
    authScopes: { authenticated: true },
    args: { ids: t.arg.idList({ required: true, description: `The entity ids (UUIDs), at most ${MAX_NODE_IDS}.` }) },
    resolve: (_parent, args, ctx) => {
      checkNodeIdCount(args.ids);
      const loader = nodeLoader(ctx);
      return Promise.all(args.ids.map((id) => loader.load(String(id))));
    },
  }),
}));
