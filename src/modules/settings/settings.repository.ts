import type { Selectable, Updateable } from 'kysely';
import type { Db, UserSettingsTable, WriteDb } from '../../db/database.ts';
import { toIso } from '../../platform/clock.ts';
import type { Page } from '../../platform/pagination.ts';
import type { Settings, SettingsUpdate, SettingsValues } from './settings.schemas.ts';

type SettingsRow = Selectable<UserSettingsTable>;
const flag = (value: boolean) => (value ? 1 : 0);

export async function findByUser(db: Db, userId: number): Promise<Settings | undefined> {
  const row = await db.selectFrom('user_settings').selectAll().where('user_id', '=', userId).executeTakeFirst();
  return row && fromRow(row);
}

/** The language column of those of the users who have settings (null: not chosen). */
export async function languagesOf(db: Db, userIds: readonly number[]): Promise<Map<number, string | null>> {
  const rows = await db.selectFrom('user_settings').select(['user_id', 'language']).where('user_id', 'in', userIds).execute();
  return new Map(rows.map((row) => [row.user_id, row.language]));
}

/** Creates the user's settings with the given values unless they already exist. */
export async function insertIfMissing(db: WriteDb, userId: number, values: SettingsValues, now: number): Promise<void> {
  await db
    .insertInto('user_settings')
    .values({ ...(toRow(values) as Required<Updateable<UserSettingsTable>>), user_id: userId, created_at: now, updated_at: now })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
}

/** `changes` holds only values that differ: a deletion request that appears is timed now, one withdrawn is cleared. */
export async function update(db: WriteDb, userId: number, changes: SettingsUpdate, now: number): Promise<void> {
  const requested = changes.deleteAccountRequested === undefined ? {} : { delete_account_requested_at: changes.deleteAccountRequested ? now : null };
  await db.updateTable('user_settings').set({ ...toRow(changes), ...requested, updated_at: now }).where('user_id', '=', userId).execute();
}

/** An erased user's settings: the emergency contact forgotten, the deletion request fulfilled. */
export async function erase(db: WriteDb, userId: number, now: number): Promise<void> {
  await db.updateTable('user_settings').set({ emergency_contact: '', delete_account_requested: 0, delete_account_requested_at: null, updated_at: now }).where('user_id', '=', userId).execute();
}

/** Users who asked for their account to be deleted, latest settings rows first (limit + 1, the extra one proving a next page). */
export function deletionRequests(db: Db, page: Page): Promise<Array<{ id: number; user_id: number; delete_account_requested_at: number | null }>> {
  let query = db.selectFrom('user_settings').select(['id', 'user_id', 'delete_account_requested_at']).where('delete_account_requested', '=', 1).orderBy('id', 'desc').limit(page.limit + 1);
  if (page.beforeId !== undefined) query = query.where('id', '<', page.beforeId);
  return query.execute();
}

function toRow(values: SettingsUpdate): Updateable<UserSettingsTable> {
  const row: Updateable<UserSettingsTable> = {
    trip_sharing_default: values.tripSharingDefault === undefined ? undefined : flag(values.tripSharingDefault),
    hide_phone_number: values.hidePhoneNumber === undefined ? undefined : flag(values.hidePhoneNumber),
    emergency_contact: values.emergencyContact,
    default_payment_method: values.defaultPaymentMethod,
    auto_tip_enabled: values.autoTipEnabled === undefined ? undefined : flag(values.autoTipEnabled),
    invoice_email_enabled: values.invoiceEmailEnabled === undefined ? undefined : flag(values.invoiceEmailEnabled),
    map_style: values.mapStyle,
    avoid_tolls: values.avoidTolls === undefined ? undefined : flag(values.avoidTolls),
    avoid_highways: values.avoidHighways === undefined ? undefined : flag(values.avoidHighways),
    navigation_voice_language: values.navigationVoiceLanguage,
    preferred_vehicle_type: values.preferredVehicleType,
    ac_preference: values.acPreference,
    quiet_ride: values.quietRide === undefined ? undefined : flag(values.quietRide),
    language: values.language,
    delete_account_requested: values.deleteAccountRequested === undefined ? undefined : flag(values.deleteAccountRequested),
  };
  return Object.fromEntries(Object.entries(row).filter(([, value]) => value !== undefined));
}

function fromRow(row: SettingsRow): Settings {
  return {
    id: row.id,
    userId: row.user_id,
    tripSharingDefault: row.trip_sharing_default === 1,
    hidePhoneNumber: row.hide_phone_number === 1,
    emergencyContact: row.emergency_contact,
    defaultPaymentMethod: row.default_payment_method as Settings['defaultPaymentMethod'],
    autoTipEnabled: row.auto_tip_enabled === 1,
    invoiceEmailEnabled: row.invoice_email_enabled === 1,
    mapStyle: row.map_style as Settings['mapStyle'],
    avoidTolls: row.avoid_tolls === 1,
    avoidHighways: row.avoid_highways === 1,
    navigationVoiceLanguage: row.navigation_voice_language,
    preferredVehicleType: row.preferred_vehicle_type as Settings['preferredVehicleType'],
    acPreference: row.ac_preference as Settings['acPreference'],
    quietRide: row.quiet_ride === 1,
    language: row.language as Settings['language'],
    deleteAccountRequested: row.delete_account_requested === 1,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}
