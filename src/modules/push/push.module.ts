import type { FastifyBaseLogger } from 'fastify';
import type { DomainEventsDispatcher, UserHub } from '../../events.ts';
import type { Metrics } from '../../platform/metrics.ts';
import type { PushTransport } from '../../platform/push/push-transport.ts';
import type { Operators } from '../auth/operators.ts';
import { PushDeliveries, type PushDeliveryLimits } from './push-deliveries.ts';
import { offerMessage, rideChangeMessage, sosMessage } from './push-messages.ts';
import { PushSubscriptions, type PushSubscriptionsDependencies } from './push-subscriptions.service.ts';

export interface PushDependencies extends PushSubscriptionsDependencies {
  events: DomainEventsDispatcher;
  hub: Pick<UserHub, 'connected'>;
  operators: Pick<Operators, 'ids'>;
  transport: PushTransport;
  log: FastifyBaseLogger;
  metrics: Pick<Metrics, 'counter'>;
  limits?: Partial<PushDeliveryLimits>;
}

export interface PushServices {
  subscriptions: PushSubscriptions;
  deliveries: PushDeliveries;
}

/** Web Push (docs/push.md): browsers' subscriptions, and what reaches a user whose app is closed. */
export function createPush(deps: PushDependencies): PushServices {
  const subscriptions = new PushSubscriptions(deps);
  const outcomes = deps.metrics.counter('push_messages_total', 'Push messages by result: sent, skipped (an app of the user was connected), none (no subscription), pruned (404/410), retried, failed, dropped (queue full)', ['result']);
  const deliveries = new PushDeliveries({ ...deps, subscriptions, outcomes });
  const { events, clock } = deps;

  // What the push module reacts to, after commit; each only queues, so no request waits on a push service.
  events.afterCommit('offer.created', ({ driverId, offer }) => deliveries.enqueue(driverId, offerMessage(offer, clock.now())));
  events.afterCommit('notification.created', (notification) => {
    const message = rideChangeMessage(notification);
    if (message) deliveries.enqueue(notification.userId, message);
  });
  events.afterCommit('incident.opened', async (incident) => {
    for (const operatorId of await deps.operators.ids()) deliveries.enqueue(operatorId, sosMessage(incident));
  });
  // A person erased or blocked: their browsers hear nothing more.
  events.inUnit('account.erasing', (tx, { userId }) => subscriptions.erase(tx, userId));
  events.afterCommit('account.closed', ({ userId }) => subscriptions.removeAll(userId));
  return { subscriptions, deliveries };
}
