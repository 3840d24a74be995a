import type { FastifyInstance } from 'fastify';
import type { Transactions } from '../../db/transaction.ts';
import type { Clock } from '../../platform/clock.ts';
import type { AuthService } from '../auth/auth.service.ts';
import type { ComplaintsService } from '../complaints/complaints.service.ts';
import type { DispatchServices } from '../dispatch/dispatch.module.ts';
import type { DriverDocuments } from '../drivers/driver-documents.service.ts';
import type { DriverProfiles } from '../drivers/driver-profiles.service.ts';
import type { DriversService } from '../drivers/drivers.service.ts';
import type { NotificationsService } from '../notifications/notifications.service.ts';
import type { PaymentsService } from '../payments/payments.service.ts';
import type { Pricing } from '../pricing/pricing.service.ts';
import type { RideStats } from '../rides/ride-stats.service.ts';
import type { RideServices } from '../rides/rides.module.ts';
import type { Incidents } from '../safety/incidents.service.ts';
import type { AuditTrail } from './audit.ts';
import { AdminComplaints } from './complaints.service.ts';
import { complianceRoutes } from './compliance.routes.ts';
import { AdminCompliance } from './compliance.service.ts';
import { supportRoutes } from './complaints.routes.ts';
import { driverApprovalRoutes } from './drivers.routes.ts';
import { AdminDrivers } from './drivers.service.ts';
import { driverDocumentsRoutes } from './driver-documents.routes.ts';
import { AdminDocuments } from './driver-documents.service.ts';
import { overviewRoutes } from './overview.routes.ts';
import { AdminOverview } from './overview.service.ts';
import { pricingRoutes } from './pricing.routes.ts';
import { AdminPricing } from './pricing.service.ts';
import { rideOperationsRoutes } from './rides.routes.ts';
import { AdminRides } from './rides.service.ts';
import type { WhatIf } from '../replay/what-if.service.ts';

export interface OperatorDependencies {
  transactions: Transactions;
  clock: Clock;
  /** SERVICE_TIMEZONE: where the overview's day begins. */
  timeZone: string;
  /** SIMULATION_SPEED: the overview's last hour is a simulated city's hour. */
  simulationSpeed: number;
  audit: AuditTrail;
  auth: AuthService;
  rides: RideServices;
  stats: RideStats;
  drivers: DriversService;
  profiles: DriverProfiles;
  documents: DriverDocuments;
  dispatch: DispatchServices;
  pricing: Pricing;
  payments: PaymentsService;
  notifications: NotificationsService;
  complaints: ComplaintsService;
  incidents: Pick<Incidents, 'figures'>;
  /** What-if replays a new pricing version may cite. */
  whatIf: Pick<WhatIf, 'citation'>;
}

/** The operator API's jobs, one service each; every change they make is audited in its own transaction. */
export interface OperatorServices {
  overview: AdminOverview;
  rides: AdminRides;
  drivers: AdminDrivers;
  documents: AdminDocuments;
  pricing: AdminPricing;
  complaints: AdminComplaints;
  compliance: AdminCompliance;
}

export function createOperatorServices(deps: OperatorDependencies): OperatorServices {
  const { transactions, audit, auth } = deps;
  return {
    overview: new AdminOverview({ stats: deps.stats, drivers: deps.drivers, availability: deps.dispatch.availability, payments: deps.payments, incidents: deps.incidents, clock: deps.clock, timeZone: deps.timeZone, simulationSpeed: deps.simulationSpeed }),
    rides: new AdminRides({ rides: deps.rides, users: auth, offers: deps.dispatch.offers, payments: deps.payments, complaints: deps.complaints, audit }),
    drivers: new AdminDrivers({ transactions, profiles: deps.profiles, users: auth, notifications: deps.notifications, audit }),
    documents: new AdminDocuments({ transactions, documents: deps.documents, notifications: deps.notifications, audit }),
    pricing: new AdminPricing({ transactions, pricing: deps.pricing, audit, whatIf: deps.whatIf }),
    complaints: new AdminComplaints({ transactions, complaints: deps.complaints, audit }),
    compliance: new AdminCompliance({ rides: deps.stats, pricing: deps.pricing }),
  };
}

/** The operator API's routes for those jobs (prefix /admin). */
export async function operatorRoutes(app: FastifyInstance, { overview, rides, drivers, documents, pricing, complaints, compliance }: OperatorServices) {
  await app.register(overviewRoutes, { overview });
  await app.register(rideOperationsRoutes, { rides });
  await app.register(driverApprovalRoutes, { drivers });
  await app.register(driverDocumentsRoutes, { documents });
  await app.register(pricingRoutes, { pricing });
  await app.register(supportRoutes, { complaints });
  await app.register(complianceRoutes, { compliance });
}
