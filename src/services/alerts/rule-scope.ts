import type { AlertRule } from '../../generated/prisma/client.js';

/** Does a rule's optional scope take this product (of this category) at this location? */
export const ruleCovers = (rule: Pick<AlertRule, 'locationId' | 'productId' | 'categoryId'>, at: { locationId: string | null; productId: string | null; categoryId: string | null }) =>
  (!rule.locationId || rule.locationId === at.locationId) && (!rule.productId || rule.productId === at.productId) && (!rule.categoryId || rule.categoryId === at.categoryId);
