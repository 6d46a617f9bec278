import { productCreate, productUpdate } from '../../contracts/products/product-input.js';
import { builder } from '../builder.js';
import { contractInput, parseInput } from '../contract-input.js';
import type { ProductMaster } from '../../generated/prisma/client.js';
import { countProducts, createProduct, findProductBySku, findProducts, getProduct, listProducts, type ProductListItem, updateProduct } from '../../services/products/products.js';
import { NodeRef } from '../node/node-interface.js';

export const ProductType = builder.prismaObject('ProductMaster', {
  interfaces: [NodeRef],
  name: 'Product',
  description: 'An item the organization stocks (also called a product master).',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Identifier.' }),
    sku: t.exposeString('sku', { description: 'Stock keeping unit, unique within the organization.' }),
    globalSku: t.exposeString('sku', { description: 'The same as sku (name used by inventory level responses).' }),
    name: t.exposeString('name', { description: 'Product name.' }),
    productName: t.exposeString('name', { description: 'The same as name (name used by inventory level responses).' }),
    description: t.exposeString('description', { nullable: true, description: 'Free text description.' }),
    unitCost: t.expose('unitCost', { type: 'Decimal', nullable: true, description: 'Cost of one unit, used to value stock.' }),
    minShelfLifeDays: t.exposeInt('minShelfLifeDays', { nullable: true, description: "Lot control: days of shelf life a lot must have left to be picked; null takes the organization's minimum." }),
    organizationId: t.exposeID('organizationId', { description: 'Organization that owns the product.' }),
    category: t.relation('category', { nullable: true, description: 'Category the product belongs to.' }),
    categoryName: t.string({
      nullable: true,
      description: 'Name of the category, if any (name used by inventory and ATP responses).',
      select: { category: { select: { name: true } } },
      resolve: (product) => product.category?.name ?? null,
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the product was created.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When the product was last changed.' }),
  }),
});

/**
 * Products of a list as the Product type: its shape is the model's, and a list may carry the unit cost as a number,
 * which the Decimal scalar serializes as it serializes a Decimal (no field of Product computes with it).
 */
export const asProducts = (items: ProductListItem[]) => items as ProductMaster[];

const ProductPage = builder.objectRef<Awaited<ReturnType<typeof listProducts>>>('ProductPage').implement({
  description: 'One page of products with paging totals.',
  fields: (t) => ({
    items: t.field({ type: [ProductType], description: 'Products on this page, newest first.', resolve: (p) => asProducts(p.items) }),
    page: t.exposeInt('page', { description: 'Page number, from 1.' }),
    limit: t.exposeInt('limit', { description: 'Page size.' }),
    total: t.exposeInt('total', { description: 'Products matching the search in all pages.' }),
    totalPages: t.exposeInt('totalPages', { description: 'Number of pages.' }),
  }),
});

const ProductCreateInput = contractInput('ProductCreateInput', productCreate, { description: 'A new product.', types: { unitCost: 'Decimal' } });

const ProductUpdateInput = contractInput('ProductUpdateInput', productUpdate, {
  description: 'Changes to a product; absent fields stay as they are, null clears an optional field.',
  types: { unitCost: 'Decimal' },
});

const SKU_FILTER = 'Only the product with exactly this SKU, without regard to case (at most one; a lookup by index, however large the catalog). With search, both apply.';

builder.queryFields((t) => ({
  products: t.prismaConnection({
    type: 'ProductMaster',
    cursor: 'id',
    description: 'Products of the organization, newest first, as a Relay connection.',
    authScopes: { permission: 'products.read' },
    args: {
      search: t.arg.string({ description: 'Case-insensitive match on SKU or name.' }),
      sku: t.arg.string({ description: SKU_FILTER }),
    },
    totalCount: (_parent, args, ctx) => countProducts(ctx, args),
    resolve: async (query, _parent, args, ctx) => asProducts(await findProducts(ctx, args, query)),
  }),
  productsPage: t.field({
    type: ProductPage,
    description: "REST adapter's shape (GET /api/products): products of the organization by page number.",
    deprecationReason: "The REST adapter's page shape (GET /api/products); GraphQL clients use the connection `products`.",
    authScopes: { permission: 'products.read' },
    args: {
      page: t.arg.int({ description: 'Page number, from 1 (default 1).' }),
      limit: t.arg.int({ description: 'Page size, 1 to 100 (default 50).' }),
      search: t.arg.string({ description: 'Case-insensitive match on SKU or name.' }),
      sku: t.arg.string({ description: SKU_FILTER }),
    },
    resolve: (_parent, args, ctx) => listProducts(ctx, args),
  }),
  productBySku: t.prismaField({
    type: 'ProductMaster',
    nullable: true,
    description: "One product by its SKU, without regard to case; null when the organization has none with it. A lookup by index: as fast with a million products as with ten.",
    authScopes: { permission: 'products.read' },
    args: { sku: t.arg.string({ required: true, description: 'The SKU (any case).' }) },
    resolve: (query, _parent, args, ctx) => findProductBySku(ctx, args.sku, query),
  }),
  product: t.prismaField({
    type: 'ProductMaster',
    description: "One product by id; null when it is unknown or not the organization's.",
    orNullWhenAbsent: true,
    authScopes: { permission: 'products.read' },
    args: { id: t.arg.id({ required: true, description: 'Product id.' }) },
    resolve: (query, _parent, args, ctx) => getProduct(ctx, String(args.id), query),
  }),
}));

builder.mutationFields((t) => ({
  createProduct: t.prismaField({
    refusals: ['ValidationError'],
    type: 'ProductMaster',
    description: 'Creates a product.',
    authScopes: { permission: 'products.write' },
    args: { input: t.arg({ type: ProductCreateInput, required: true, description: 'The product.' }) },
    resolve: (_query, _parent, args, ctx) => createProduct(ctx, parseInput(productCreate, args.input)),
  }),
  updateProduct: t.prismaField({
    refusals: ['ValidationError', 'NotFoundError'],
    type: 'ProductMaster',
    description: 'Changes a product.',
    authScopes: { permission: 'products.write' },
    args: {
      id: t.arg.id({ required: true, description: 'Product id.' }),
      input: t.arg({ type: ProductUpdateInput, required: true, description: 'The changes.' }),
    },
    resolve: (_query, _parent, args, ctx) => updateProduct(ctx, String(args.id), parseInput(productUpdate, args.input)),
  }),
}));
