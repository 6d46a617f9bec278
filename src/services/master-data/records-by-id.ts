import type { RequestContext } from '../../context.js';
import { Prisma, type Category, type Channel, type Location, type ProductMaster } from '../../generated/prisma/client.js';
import { rowsByIds } from '../rows-by-ids.js';

/** The organization's products among these ids (ids of other organizations or unknown ones are left out). */
export function productsByIds(ctx: RequestContext, ids: readonly string[]) {
  return rowsByIds<ProductMaster>(ctx, 'product_masters', Prisma.ProductMasterScalarFieldEnum, ids);
}

/** The organization's locations among these ids (ids of other organizations or unknown ones are left out). */
export function locationsByIds(ctx: RequestContext, ids: readonly string[]) {
  return rowsByIds<Location>(ctx, 'locations', Prisma.LocationScalarFieldEnum, ids);
}

/** The organization's channels among these ids (ids of other organizations or unknown ones are left out). */
export function channelsByIds(ctx: RequestContext, ids: readonly string[]) {
  return rowsByIds<Channel>(ctx, 'channels', Prisma.ChannelScalarFieldEnum, ids);
}

/** The organization's categories among these ids (ids of other organizations or unknown ones are left out). */
export function categoriesByIds(ctx: RequestContext, ids: readonly string[]) {
  return rowsByIds<Category>(ctx, 'categories', Prisma.CategoryScalarFieldEnum, ids);
}
