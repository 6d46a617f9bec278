import { stockRequestFulfilment } from '../../src/contracts/stock-requests/stock-request-fulfilment.js';
import { defineRoutes } from '../route.js';
import { moveRoute } from './stock-request-routes.js';

export const stockRequestFulfilmentRoutes = defineRoutes([
  moveRoute('fulfil', 'fulfilStockRequest', 'StockRequestFulfilInput', { body: stockRequestFulfilment }, {
    operationId: 'fulfilStockRequest',
    summary: 'Fulfil a stock request: ship units as an inventory transfer',
    description:
      'Body {lines?: [{productMasterId, quantity}], closeRemainder?: boolean, note?}; needs stockrequests.write. From APPROVED or PARTIALLY_FULFILLED: ships the lines named ' +
      '(absent: everything approved and not yet fulfilled) from the supplying location to the requesting one on a new inventory transfer, shipped at once (IN_TRANSIT, ' +
      'sourceType STOCK_REQUEST, sourceId the request; its id in the FULFILMENT entry of GET /{id}/status). The units reserved on approval go first, from exactly the ' +
      'lots and bins holding them; what the approval could not reserve comes from available stock, first-expiring lots first. The request becomes PARTIALLY_FULFILLED; ' +
      'receiving its transfers (POST /api/inventory/transfers/{transferId} action receive) makes it FULFILLED once every approved unit is shipped and received. ' +
      'closeRemainder: true closes what stays unfulfilled (its reservation released). More than a line has approved and not yet fulfilled: 400 on lines.i.quantity; ' +
      'a product without a line: 404; not enough stock at the supplying location: 400 INSUFFICIENT_STOCK naming lines.i.quantity; another state, nothing left to fulfil ' +
      'or the remainder closed: 409 INVALID_STATE. A refusal changes nothing.',
  }),
]);
