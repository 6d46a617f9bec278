import type { RestArea } from '../route.js';
import { alertRoutes } from './alert-routes.js';

export const alertsArea: RestArea = {
  routes: alertRoutes,
  tags: [
    {
      name: 'Alerts',
      description:
        "An organization's alert rules (available below an inventory level's minimum, a failed import, stock requests waiting, lots expiring) and the alerts they raise " +
        '(docs/alerts.md): raised, de-duplicated and resolved by the system from the domain events and a periodic sweep; acknowledged and resolved by users. ' +
        'The spec names the tag without paths: these are our design.',
    },
  ],
};
