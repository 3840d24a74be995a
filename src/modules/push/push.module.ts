import type { FastifyBaseLogger } from 'fastify';
import type { DomainEventsDispatcher, UserHub } from '../../events.ts';
import type { Language, Texts } from '../../platform/i18n/texts.ts';
import type { Metrics } from '../../platform/metrics.ts';
import type { PushTransport } from '../../platform/push/push-transport.ts';
import type { Operators } from '../auth/operators.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import { PushDeliveries, type PushDeliveryLimits } from './push-deliveries.ts';
import { offerMessage, rideChangeMessage, sosMessage } from './push-messages.ts';
import { PushSubscriptions, type PushSubscriptionsDependencies } from './push-subscriptions.service.ts';

export interface PushDependencies extends PushSubscriptionsDependencies {
  events: DomainEventsDispatcher;
  hub: Pick<UserHub, 'connected'>;
  operators: Pick<Operators, 'ids'>;
  /** Offers and SOS alerts are written in each recipient's language (ride changes come as their notification, already in it). */
  texts: Texts;
  languages: Pick<SettingsService, 'languagesOf'>;
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
  const { texts, languages } = deps;
  // A language that cannot be read does not cost the message: it goes in English.
  const languagesOf = (userIds: readonly number[]) =>
    languages.languagesOf(userIds).catch((error: unknown) => {
      deps.log.warn({ err: error }, 'languages not read; push messages in English');
      return new Map<number, Language>();
    });
  const wordsFor = (languageOf: Map<number, Language>, userId: number) => texts.in(languageOf.get(userId) ?? 'en');
  events.afterCommit('offer.created', async ({ driverId, offer }) => {
    deliveries.enqueue(driverId, offerMessage(offer, clock.now(), wordsFor(await languagesOf([driverId]), driverId)));
  });
  events.afterCommit('notification.created', (notification) => {
    const message = rideChangeMessage(notification);
    if (message) deliveries.enqueue(notification.userId, message);
  });
  events.afterCommit('incident.opened', async (incident) => {
    const operators = await deps.operators.ids();
    const languageOf = await languagesOf(operators);
    for (const operatorId of operators) deliveries.enqueue(operatorId, sosMessage(incident, wordsFor(languageOf, operatorId)));
  });
  // A person erased or blocked: their browsers hear nothing more.
  events.inUnit('account.erasing', (tx, { userId }) => subscriptions.erase(tx, userId));
  events.afterCommit('account.closed', ({ userId }) => subscriptions.removeAll(userId));
  return { subscriptions, deliveries };
}
