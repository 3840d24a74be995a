import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import type { Transactions } from '../../db/transaction.ts';
import type { DomainEventsDispatcher } from '../../events.ts';
import type { Clock } from '../../platform/clock.ts';
import type { PaymentProvider } from '../../platform/payment-provider.ts';
import type { NotificationsService } from '../notifications/notifications.service.ts';
import type { RidePayments } from '../rides/ride-payments.service.ts';
import { PaymentsService } from './payments.service.ts';
import { RefundSender } from './refund-sender.ts';
import { Refunds } from './refunds.service.ts';

export interface PaymentsModuleDependencies {
  db: Db;
  transactions: Transactions;
  clock: Clock;
  log: FastifyBaseLogger;
  provider: PaymentProvider | undefined;
  webhookSecret: string | undefined;
  rides: RidePayments;
  /** What payments react to: a ride cancelled, refunds recorded. */
  events: DomainEventsDispatcher;
  notifications: Pick<NotificationsService, 'record'>;
}

export interface PaymentServices {
  payments: PaymentsService;
  refunds: Refunds;
  /** Refunds the provider has not taken yet are sent again from start on; stop() waits for attempts under way. */
  sender: RefundSender;
}

export function createPayments(deps: PaymentsModuleDependencies): PaymentServices {
  const { db, transactions, clock, log, provider } = deps;
  const refunds = new Refunds({ rides: deps.rides, notifications: deps.notifications, clock, events: deps.events });
  const sender = new RefundSender({ db, transactions, provider, refunds, clock, log });
  // What payments react to: refunds just recorded go to the provider at once.
  deps.events.afterCommit('refund.recorded', ({ refundIds }) => sender.sendSoon(refundIds));
  // A paid ride's cancellation refunds what exceeds its fee, inside the cancelling unit.
  deps.events.inUnit('ride.moving', async (tx, moving) => {
    if (moving.ride.status === 'CANCELLED') moving.ride = (await refunds.onRideCancelled(tx, moving.ride, moving.operator)) ?? moving.ride;
  });
  const payments = new PaymentsService({ db, transactions, clock, log, provider, webhookSecret: deps.webhookSecret, rides: deps.rides, refunds, notifications: deps.notifications });
  // An erased account's payments lose what the payer typed, in the erasure's unit.
  deps.events.inUnit('account.erasing', (tx, { userId }) => payments.eraseTextOf(tx, userId));
  sender.start();
  return { payments, refunds, sender };
}
