import type { Generated } from 'kysely';

// Row type of the push module's table: database.ts's Database extends PushTables (kept here so that
// file stays within its length).

/** A browser's Web Push subscription: its push service endpoint and the keys its messages are encrypted to. */
export interface PushSubscriptionsTable {
  id: Generated<number>;
  user_id: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  created_at: number;
}

export interface PushTables {
  push_subscriptions: PushSubscriptionsTable;
}
