import type { Transactions } from '../../db/transaction.ts';
import type { Actor } from '../../platform/audit.ts';
import { notFound } from '../../platform/errors.ts';
import type { Static } from 'typebox';
import { toPage } from '../../platform/pagination.ts';
import type { AuthService } from '../auth/auth.service.ts';
import type { DriverProfiles } from '../drivers/driver-profiles.service.ts';
import type { Approval, DriverProfile, DriversByApprovalQuery } from '../drivers/drivers.schemas.ts';
import type { NewNotification, NotificationsService } from '../notifications/notifications.service.ts';
import type { AuditTrail } from './audit.ts';
import type { AdminDriver } from './operations.schemas.ts';

export interface AdminDriversDependencies {
  transactions: Transactions;
  profiles: Pick<DriverProfiles, 'list' | 'setApproval'>;
  users: Pick<AuthService, 'findUsers'>;
  notifications: Pick<NotificationsService, 'record'>;
  audit: Pick<AuditTrail, 'record'>;
}

/** The driver approval queue: who is waiting, and an operator's decision with its reason. */
export class AdminDrivers {
  readonly #deps: AdminDriversDependencies;

  constructor(deps: AdminDriversDependencies) {
    this.#deps = deps;
  }

  /** Drivers with a vehicle profile, newest first, with their name and e-mail. */
  async list(query: Static<typeof DriversByApprovalQuery>): Promise<{ items: AdminDriver[]; nextCursor: string | null }> {
    const { profiles, nextCursor } = await this.#deps.profiles.list(query.approval, toPage(query));
    const users = await this.#deps.users.findUsers(profiles.map((profile) => profile.driverId));
    const items = profiles.map((profile) => ({ ...profile, name: users.get(profile.driverId)?.name ?? '', email: users.get(profile.driverId)?.email ?? '' }));
    return { items, nextCursor };
  }

  approve(actor: Actor, driverId: number): Promise<DriverProfile> {
    return this.#decide(actor, driverId, 'approved', null);
  }

  reject(actor: Actor, driverId: number, reason: string): Promise<DriverProfile> {
    return this.#decide(actor, driverId, 'rejected', reason.trim());
  }

  /** The decision, the driver's notification and the audit entry commit together. */
  #decide(actor: Actor, driverId: number, approval: Approval, reason: string | null): Promise<DriverProfile> {
    return this.#deps.transactions.run(async (tx) => {
      const changed = await this.#deps.profiles.setApproval(tx, driverId, approval, reason);
      if (!changed) throw notFound(`Driver ${driverId} has no vehicle profile to decide on`, 'NO_PROFILE');
      await this.#deps.notifications.record(tx, [decisionNotice(driverId, approval, reason)]);
      await this.#deps.audit.record(tx, { actor, action: `driver.${approval === 'approved' ? 'approve' : 'reject'}`, target: { type: 'driver', id: driverId }, ...changed });
      return changed.after;
    });
  }
}

function decisionNotice(driverId: number, approval: Approval, reason: string | null): NewNotification {
  return approval === 'approved'
    ? { userId: driverId, eventType: 'DRIVER_APPROVED', text: { name: 'driverApproved', values: {} } }
    : { userId: driverId, eventType: 'DRIVER_REJECTED', text: { name: 'driverRejected', values: { reason: reason ?? '' } } };
}
