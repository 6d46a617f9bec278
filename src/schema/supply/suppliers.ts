import { builder } from '../builder.js';
import { countSuppliers, findSuppliers } from '../../services/supply/supply-queries.js';
import { NodeRef } from '../node/node-interface.js';

export const SupplierType = builder.prismaObject('Supplier', {
  interfaces: [NodeRef],
  description: 'A supplier the organization buys from (imported with POST /api/import/suppliers).',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Identifier.' }),
    code: t.exposeString('code', { description: 'Unique supplier identifier within the organization (the import key).' }),
    name: t.exposeString('name', { description: 'Supplier name (the code when the import gave none).' }),
    email: t.exposeString('email', { nullable: true, description: 'Contact email address.' }),
    phone: t.exposeString('phone', { nullable: true, description: 'Contact phone number.' }),
    leadTimeDays: t.exposeInt('leadTimeDays', { nullable: true, description: 'Usual days from ordering to receiving.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the supplier was created.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When the supplier was last changed.' }),
  }),
});

builder.queryFields((t) => ({
  suppliers: t.prismaConnection({
    type: 'Supplier',
    cursor: 'id',
    description: 'Suppliers of the organization in creation order, as a Relay connection.',
    authScopes: { permission: 'procurement.read' },
    args: { search: t.arg.string({ description: 'Case-insensitive match on code or name.' }) },
    totalCount: (_parent, args, ctx) => countSuppliers(ctx, args.search),
    resolve: (query, _parent, args, ctx) => findSuppliers(ctx, args.search, query),
  }),
}));
