import type { RequestContext } from '../../../context.js';
import { newFieldErrors, validationError } from '../../../kernel/errors.js';
import { orgId } from '../../tenant.js';

export interface TransferLineRefs {
  productMasterId: string;
  lotId?: string | null;
  binId?: string | null;
  destBinId?: string | null;
}


/**
 * Checks every id a transfer body names, as the house treats ids in bodies being validated: an unknown
 * or foreign location, product, lot or bin, a lot of another product, or a bin at the wrong location is
 * 400 VALIDATION_ERROR naming the field (`destLocationId`, `lines.2.lotId`), all problems at once.
 */
export async function checkTransferRefs(ctx: RequestContext, refs: { sourceLocationId: string; destLocationId: string; lines: TransferLineRefs[] }) {
  const db = ctx.prisma;
  const organizationId = orgId(ctx);
  const { lines } = refs;
  const uniq = (values: (string | null | undefined)[]) => [...new Set(values.filter((v): v is string => Boolean(v)))];
  const [locations, products, lots, bins] = await Promise.all([
    db.location.findMany({ where: { organizationId, id: { in: uniq([refs.sourceLocationId, refs.destLocationId]) } }, select: { id: true } }),
    db.productMaster.findMany({ where: { organizationId, id: { in: uniq(lines.map((l) => l.productMasterId)) } }, select: { id: true } }),
    db.lot.findMany({ where: { organizationId, id: { in: uniq(lines.map((l) => l.lotId)) } }, select: { id: true, productMasterId: true } }),
    db.bin.findMany({ where: { organizationId, id: { in: uniq(lines.flatMap((l) => [l.binId, l.destBinId])) } }, select: { id: true, locationId: true } }),
  ]);
  const knownLocation = new Set(locations.map((l) => l.id));
  const knownProduct = new Set(products.map((p) => p.id));
  const lotProduct = new Map(lots.map((lot) => [lot.id, lot.productMasterId]));
  const binLocation = new Map(bins.map((bin) => [bin.id, bin.locationId]));
  const details = newFieldErrors();
  if (!knownLocation.has(refs.sourceLocationId)) details.sourceLocationId = ['Location not found'];
  if (!knownLocation.has(refs.destLocationId)) details.destLocationId = ['Location not found'];
  lines.forEach((line, i) => {
    if (!knownProduct.has(line.productMasterId)) details[`lines.${i}.productMasterId`] = ['Product not found'];
    if (line.lotId) {
      const product = lotProduct.get(line.lotId);
      if (!product) details[`lines.${i}.lotId`] = ['Lot not found'];
      else if (product !== line.productMasterId) details[`lines.${i}.lotId`] = ['Not a lot of this product'];
    }
    for (const [field, locationId, where] of [['binId', refs.sourceLocationId, 'source'], ['destBinId', refs.destLocationId, 'destination']] as const) {
      const binId = line[field];
      if (!binId) continue;
      const at = binLocation.get(binId);
      if (!at) details[`lines.${i}.${field}`] = ['Bin not found'];
      else if (at !== locationId) details[`lines.${i}.${field}`] = [`Not a bin of the ${where} location`];
    }
  });
  if (Object.keys(details).length) throw validationError(details);
}
