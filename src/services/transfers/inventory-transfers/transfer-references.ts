import type { RequestContext } from '../../../context.js';
import { newFieldErrors, notFound, validationError } from '../../../kernel/errors.js';
import { orgId } from '../../tenant.js';
import type { Tx } from '../../inventory/ledger/stock-ledger.js';

export interface TransferLineRefs {
  productMasterId: string;
  lotId?: string | null;
  binId?: string | null;
  destBinId?: string | null;
}

type Db = Tx | RequestContext['prisma'];

/**
 * Checks every id a transfer body names: an unknown or foreign location, product, lot or bin is 404
 * (as in filters and the other bodies naming records); a lot of another product, or a bin at the wrong
 * location, is 400 on that line's field.
 */
export async function checkTransferRefs(ctx: RequestContext, db: Db, refs: { sourceLocationId: string; destLocationId: string; lines: TransferLineRefs[] }) {
  const organizationId = orgId(ctx);
  const { lines } = refs;
  const uniq = (values: (string | null | undefined)[]) => [...new Set(values.filter((v): v is string => Boolean(v)))];
  const productIds = uniq(lines.map((l) => l.productMasterId));
  const lotIds = uniq(lines.map((l) => l.lotId));
  const binIds = uniq(lines.flatMap((l) => [l.binId, l.destBinId]));
  const locationIds = uniq([refs.sourceLocationId, refs.destLocationId]);
  const [locations, products, lots, bins] = await Promise.all([
    db.location.count({ where: { organizationId, id: { in: locationIds } } }),
    db.productMaster.count({ where: { organizationId, id: { in: productIds } } }),
    lotIds.length ? db.lot.findMany({ where: { organizationId, id: { in: lotIds } }, select: { id: true, productMasterId: true } }) : [],
    binIds.length ? db.bin.findMany({ where: { organizationId, id: { in: binIds } }, select: { id: true, locationId: true } }) : [],
  ]);
  if (locations !== locationIds.length) throw notFound('Location');
  if (products !== productIds.length) throw notFound('Product');
  if (lots.length !== lotIds.length) throw notFound('Lot');
  if (bins.length !== binIds.length) throw notFound('Bin');
  const lotProduct = new Map(lots.map((lot) => [lot.id, lot.productMasterId]));
  const binLocation = new Map(bins.map((bin) => [bin.id, bin.locationId]));
  const details = newFieldErrors();
  lines.forEach((line, i) => {
    if (line.lotId && lotProduct.get(line.lotId) !== line.productMasterId) details[`lines.${i}.lotId`] = ['Not a lot of this product'];
    if (line.binId && binLocation.get(line.binId) !== refs.sourceLocationId) details[`lines.${i}.binId`] = ['Not a bin of the source location'];
    if (line.destBinId && binLocation.get(line.destBinId) !== refs.destLocationId) details[`lines.${i}.destBinId`] = ['Not a bin of the destination location'];
  });
  if (Object.keys(details).length) throw validationError(details);
}
