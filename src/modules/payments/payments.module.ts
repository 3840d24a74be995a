import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import type { Transactions } from '../../db/transaction.ts';
import type { Clock } from '../../platform/clock.ts';
import type { PaymentProvider } from '../../platform/payment-provider.ts';
import type { NotificationsService } from '../notifications/notifications.service.ts';
import type { RidePayments } from '../rides/ride-payments.service.ts';
import type { RideTransitions } from '../rides/ride-transitions.ts';
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
  /** A paid ride's cancellation refunds what exceeds its fee, inside the cancelling transaction. */
  transitions: Pick<RideTransitions, 'on'>;
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
  const refunds = new Refunds({ rides: deps.rides, notifications: deps.notifications, clock });
  const sender = new RefundSender({ db, transactions, provider, refunds, clock, log });
  refunds.onRecorded((ids) => sender.sendSoon(ids));
  deps.transitions.on('CANCELLED', refunds.onRideCancelled);
  const payments = new PaymentsService({ db, transactions, clock, log, provider, webhookSecret: deps.webhookSecret, rides: deps.rides, refunds, notifications: deps.notifications });
  sender.start();
  return { payments, refunds, sender };
}
