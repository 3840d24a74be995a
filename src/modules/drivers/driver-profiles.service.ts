import type { Db } from '../../db/database.ts';
import type { Transactions, Tx } from '../../db/transaction.ts';
import type { DomainEventsDispatcher } from '../../events.ts';
import { toIso, type Clock } from '../../platform/clock.ts';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors.ts';
import { takePage, type Page } from '../../platform/pagination.ts';
import type { AuthService } from '../auth/auth.service.ts';
import type { DriverDocuments } from './driver-documents.service.ts';
import * as repository from './drivers.repository.ts';
import type { Approval, DriverProfile, ProfileBody } from './drivers.schemas.ts';
import { DEFAULT_RIDE_TYPE, type RideType } from '../../platform/vocabulary.ts';
import { SERVES, type VehicleType } from './vehicles.ts';

/** A driver's vehicle as riders see it. */
export interface Vehicle {
  vehicleType: VehicleType;
  vehicleModel: string | null;
  vehicleNumber: string;
}

export interface DriverProfilesDependencies {
  db: Db;
  transactions: Transactions;
  users: Pick<AuthService, 'findUser'>;
  clock: Clock;
  /** Where a changed profile or approval is announced (dispatch re-decides availability). */
  events: DomainEventsDispatcher;
  /** DRIVER_APPROVAL_REQUIRED: drivers get no offers and cannot accept until an operator approves them. */
  approvalRequired: boolean;
  /** DRIVER_DOCUMENTS_REQUIRED: drivers get no offers and cannot accept without every document valid. */
  documentsRequired: boolean;
  documents: Pick<DriverDocuments, 'cleared'>;
}

/** Drivers' vehicles and their approval by operators. */
export class DriverProfiles {
  readonly #deps: DriverProfilesDependencies;

  constructor(deps: DriverProfilesDependencies) {
    this.#deps = deps;
  }

  async get(driverId: number): Promise<DriverProfile> {
    const row = await repository.findProfile(this.#deps.db, driverId);
    if (!row) throw notFound('You have no vehicle profile yet; PUT /drivers/me/profile first', 'NO_PROFILE');
    return toProfile(row);
  }

  async save(driverId: number, body: ProfileBody): Promise<DriverProfile> {
    const now = this.#deps.clock.now();
    const row = await this.#deps.transactions.run(async (tx) => {
      const saved = await repository.saveProfile(tx.db, {
        driver_id: driverId,
        vehicle_type: body.vehicleType,
        vehicle_number: body.vehicleNumber.toUpperCase().replace(/[\s-]+/g, ''),
        vehicle_model: body.vehicleModel?.trim() || null,
        ac_available: body.acAvailable ? 1 : 0,
        created_at: now,
        updated_at: now,
      });
      await this.#deps.events.emit(tx, 'driver.profile-changed', { driverId });
      return saved;
    });
    return toProfile(row);
  }

  /** What dispatch needs: the vehicle of each driver allowed offers now (approved, and with valid documents, when these are required). */
  async dispatchable(driverIds: readonly number[]): Promise<Map<number, VehicleType>> {
    const rows = (await repository.findProfiles(this.#deps.db, driverIds)).filter((row) => this.#cleared(row.approval));
    const documented = this.#deps.documentsRequired ? await this.#deps.documents.cleared(rows.map((row) => row.driver_id)) : undefined;
    return new Map(rows.filter((row) => !documented || documented.has(row.driver_id)).map((row) => [row.driver_id, row.vehicle_type as VehicleType]));
  }

  /** The vehicles of these drivers, as a rider sees who is coming: type, model and plate. Drivers without a profile are left out. */
  async vehicles(driverIds: readonly number[]): Promise<Map<number, Vehicle>> {
    const rows = await repository.findProfiles(this.#deps.db, [...new Set(driverIds)]);
    return new Map(rows.map((row) => [row.driver_id, { vehicleType: row.vehicle_type as VehicleType, vehicleModel: row.vehicle_model, vehicleNumber: row.vehicle_number }]));
  }

  /**
   * Whether the driver may take a ride of this type, on every way of accepting: the account must be
   * a driver (checked when an admin names one), approved when approval is required, with valid
   * documents when they are required, and their
   * vehicle must serve the ride type (SERVES). A driver without a profile is the contract's plain
   * DRIVER: they serve the default ride type only, and nothing when approval is required.
   */
  async assertMayAccept(driverId: number, rideType: RideType, checkRole: boolean): Promise<void> {
    if (checkRole && (await this.#deps.users.findUser(driverId))?.role !== 'DRIVER') throw badRequest('driverId must belong to a DRIVER account');
    const row = await repository.findProfile(this.#deps.db, driverId);
    if (this.#deps.approvalRequired && row?.approval !== 'approved') throw forbidden('This driver is not approved to take rides yet', 'DRIVER_NOT_APPROVED');
    if (this.#deps.documentsRequired && !(await this.#deps.documents.cleared([driverId])).has(driverId)) {
      throw forbidden('This driver needs a valid, approved licence, registration, insurance and permit to take rides', 'DOCUMENTS_INVALID');
    }
    const serves = row ? SERVES[row.vehicle_type as VehicleType] : [DEFAULT_RIDE_TYPE];
    if (!serves.includes(rideType)) {
      const vehicle = row ? `a ${row.vehicle_type}` : 'no vehicle profile';
      throw forbidden(`A driver with ${vehicle} does not take ${rideType} rides (they take ${serves.join(', ')})`, 'VEHICLE_MISMATCH');
    }
  }

  /**
   * Locks the driver's profile for the rest of the caller's unit (PostgreSQL; SQLite has one writer):
   * a driver's steps that must see each other (taking rides ahead) follow one another. 409 NO_PROFILE
   * without one, since only a driver with a vehicle profile takes rides ahead.
   */
  async lockIn(tx: Tx, driverId: number): Promise<void> {
    if (!(await repository.findProfileForUpdate(tx.db, driverId))) throw conflict('Rides booked ahead are for drivers with a vehicle profile; PUT /drivers/me/profile first', 'NO_PROFILE');
  }

  /** An operator's decision, inside the operator's transaction (with its audit entry): the profile before and after, or undefined without one. */
  async setApproval(tx: Tx, driverId: number, approval: Approval, reason: string | null): Promise<{ before: DriverProfile; after: DriverProfile } | undefined> {
    const before = await repository.findProfileForUpdate(tx.db, driverId);
    if (!before) return undefined;
    const after = (await repository.setApproval(tx.db, driverId, approval, reason, this.#deps.clock.now()))!;
    await this.#deps.events.emit(tx, 'driver.profile-changed', { driverId });
    return { before: toProfile(before), after: toProfile(after) };
  }

  async list(approval: Approval | undefined, page: Page): Promise<{ profiles: DriverProfile[]; nextCursor: string | null }> {
    const rows = await repository.listByApproval(this.#deps.db, approval, page);
    const { items, nextCursor } = takePage(rows.map((row) => ({ ...row, id: row.driver_id })), page.limit);
    return { profiles: items.map(toProfile), nextCursor };
  }

  #cleared(approval: string): boolean {
    return !this.#deps.approvalRequired || approval === 'approved';
  }
}

function toProfile(row: repository.ProfileRow): DriverProfile {
  return {
    driverId: row.driver_id,
    vehicleType: row.vehicle_type as VehicleType,
    vehicleNumber: row.vehicle_number,
    vehicleModel: row.vehicle_model,
    acAvailable: row.ac_available === 1,
    approval: row.approval as Approval,
    approvalReason: row.approval_reason,
    updatedAt: toIso(row.updated_at),
  };
}
