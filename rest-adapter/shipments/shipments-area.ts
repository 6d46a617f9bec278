import type { RestArea } from '../route.js';
import { shipmentRoutes } from './shipment-routes.js';

export const shipmentsArea: RestArea = {
  routes: shipmentRoutes,
  tags: [
    {
      name: 'Shipments',
      description:
        'Outbound shipments of sales orders from their fulfillment location: RESERVED (the order\'s units reserved, first-expiring lots first) → PICKED (lots and bins ' +
        'recorded) → PACKED (packages, weight) → SHIPPED (carrier, tracking number; stock leaves through the ledger) → DELIVERED; CANCELLED before SHIPPED. Partial ' +
        'shipments: an order may have several, never more than it ordered. Lists with filters.',
    },
  ],
};
