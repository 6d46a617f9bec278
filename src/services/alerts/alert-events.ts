import type { Alert, AlertStatus } from '../../generated/prisma/client.js';
import type { NewEvent } from '../events/outbox/append-events.js';

type AlertEventType = 'alert.raised' | 'alert.acknowledged' | 'alert.resolved';

/** The outbox event of an alert that has just reached its status (from `from`; null: raised). */
export function alertEvent(type: AlertEventType, alert: Pick<Alert, 'id' | 'ruleId' | 'kind' | 'severity' | 'status' | 'productId' | 'locationId' | 'subjectType' | 'subjectId' | 'message' | 'resolvedByType'>, from: AlertStatus | null): NewEvent {
  return {
    type,
    subjectId: alert.id,
    productId: alert.productId,
    locationId: alert.locationId,
    payload: {
      alertId: alert.id,
      ruleId: alert.ruleId,
      kind: alert.kind,
      severity: alert.severity,
      from,
      to: alert.status,
      subjectType: alert.subjectType,
      subjectId: alert.subjectId,
      message: alert.message,
      resolvedByType: alert.resolvedByType,
    },
  };
}
