import type { PaymentMode, TimelineEntry } from '../api/types.ts';
import { t } from '../i18n/i18n.ts';
import { money } from '../ui/format.ts';
import { PAYMENT_MODE_LABELS, RIDE_TYPE_LABELS } from '../ui/labels.ts';
import { COMPLAINT_CATEGORY_LABELS, PARTY_LABELS } from './ops-labels.ts';

const distance = (value: number | null) => (value === null ? '' : t('ops.event.distance', { km: value.toFixed(1) }));

/** Who took a step, when an operator took it for the rider or driver. */
const byOperator = (operator: number | null) => (operator === null ? '' : t('ops.event.byOperator', { id: operator }));

/** A payment mode in words; one the apps do not know yet as the API names it. */
const modeOf = (mode: string) => PAYMENT_MODE_LABELS[mode as PaymentMode] ?? mode;

/** For a message's select: whether an optional part is there. */
const has = (value: unknown) => (value === null || value === undefined || value === '' ? 'no' : 'yes');

/** One event of a ride's timeline in words; a new event type on the server is a type error here until it has them. */
export function describeEvent(entry: TimelineEntry): string {
  switch (entry.event) {
    case 'booked':
      return t('ops.event.booked', { rider: entry.riderId, type: RIDE_TYPE_LABELS[entry.rideType], fare: money(entry.fare), version: entry.pricingVersion });
    case 'offered': {
      const values = { driver: entry.driverId, distance: distance(entry.pickupDistanceKm), outcome: t(`ops.event.outcome.${entry.outcome}`) };
      return entry.declineReason ? t('ops.event.offeredBecause', { ...values, reason: entry.declineReason }) : t('ops.event.offered', values);
    }
    case 'no_driver_found':
      return t('ops.event.noDriver');
    case 'accepted':
      return t('ops.event.accepted', { driver: entry.driverId, distance: distance(entry.pickupDistanceKm), operator: byOperator(entry.requestedBy) });
    case 'picked_up':
      return t('ops.event.pickedUp', { operator: byOperator(entry.requestedBy) });
    case 'positions':
      return t('ops.event.positions', { lat: entry.lat.toFixed(5), lon: entry.lon.toFixed(5) });
    case 'completed':
      return t('ops.event.completed', { fare: money(entry.fare), payment: modeOf(entry.paymentMode), operator: byOperator(entry.requestedBy) });
    case 'cancelled':
      return t('ops.event.cancelled', {
        by: PARTY_LABELS[entry.by],
        byOperator: has(entry.requestedBy),
        operator: entry.requestedBy ?? '',
        hasReason: has(entry.reason),
        reason: entry.reason ?? '',
        hasFee: entry.fee ? 'yes' : 'no',
        fee: money(entry.fee ?? 0),
      });
    case 'payment':
      return t('ops.event.payment', {
        status: entry.status,
        amount: money(entry.amountInInr),
        hasMode: has(entry.paymentMode),
        mode: entry.paymentMode ? modeOf(entry.paymentMode) : '',
        hasId: has(entry.paymentId),
        id: entry.paymentId ?? '',
      });
    case 'refund':
      return t('ops.event.refund', { status: entry.status, amount: money(entry.amountInInr), reason: entry.reason, operator: byOperator(entry.requestedBy) });
    case 'complaint':
      return t('ops.event.complaint', { id: entry.complaintId, party: PARTY_LABELS[entry.party], user: entry.filedBy, category: COMPLAINT_CATEGORY_LABELS[entry.category].toLowerCase() });
    case 'complaint_resolved':
      return t('ops.event.complaintResolved', { id: entry.complaintId, operator: entry.resolvedBy });
  }
}
