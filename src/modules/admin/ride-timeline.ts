import { toIso } from '../../platform/clock.ts';
import type { Complaint } from '../complaints/complaints.schemas.ts';
import type { OfferRecord } from '../dispatch/offers.service.ts';
import type { RidePaymentHistory } from '../payments/payments.schemas.ts';
import type { CancelledBy, Ride } from '../rides/rides.schemas.ts';
import type { TimelineEntry } from './operations.schemas.ts';

/** The audit trail's entries about a ride: which operator took which step (`ride.accept`, `ride.cancel`, …). */
export type OperatorSteps = ReadonlyArray<{ action: string; actorId: number }>;

/**
 * Everything that happened to a ride, oldest first, from the ride itself and what other modules
 * recorded about it. Events at the same moment keep the order a ride lives them in.
 */
export function rideTimeline(ride: Ride, offers: readonly OfferRecord[], money: RidePaymentHistory, complaints: readonly Complaint[], steps: OperatorSteps = []): TimelineEntry[] {
  // A step is taken once; an entry about it names the operator who took it.
  const requestedBy = (action: string) => steps.find((step) => step.action === action)?.actorId ?? null;
  const entries: TimelineEntry[] = [
    { at: ride.createdAt, event: 'booked', riderId: ride.riderId, rideType: ride.rideType, fare: ride.fare, pricingVersion: ride.pricingVersion ?? 1 },
  ];
  for (const offer of offers) {
    entries.push({
      at: toIso(offer.offeredAt),
      event: 'offered',
      offerId: offer.offerId,
      driverId: offer.driverId,
      outcome: offer.status,
      answeredAt: offer.answeredAt === null ? null : toIso(offer.answeredAt),
      pickupDistanceKm: offer.pickupDistanceKm,
      declineReason: offer.declineReason,
    });
  }
  if (ride.noDriverFoundAt) entries.push({ at: ride.noDriverFoundAt, event: 'no_driver_found' });
  if (ride.acceptedAt && ride.driverId !== null) {
    entries.push({ at: ride.acceptedAt, event: 'accepted', driverId: ride.driverId, pickupDistanceKm: ride.pickupDistanceKm ?? null, requestedBy: requestedBy('ride.accept') });
  }
  if (ride.pickedAt) entries.push({ at: ride.pickedAt, event: 'picked_up', requestedBy: requestedBy('ride.pickup') });
  if (ride.driverLocationUpdatedAt && ride.driverLat !== null && ride.driverLon !== null) {
    entries.push({ at: ride.driverLocationUpdatedAt, event: 'positions', lat: ride.driverLat, lon: ride.driverLon });
  }
  if (ride.completedAt) entries.push({ at: ride.completedAt, event: 'completed', fare: ride.fare, paymentMode: ride.paymentMode, requestedBy: requestedBy('ride.complete') });
  if (ride.cancelledAt && ride.cancelledBy) {
    entries.push({ at: ride.cancelledAt, event: 'cancelled', by: ride.cancelledBy as CancelledBy, reason: ride.cancellationReason, fee: ride.cancellationFee, requestedBy: requestedBy('ride.cancel') });
  }
  for (const payment of money.payments) {
    entries.push({
      at: payment.status === 'pending' ? payment.createdAt : payment.updatedAt,
      event: 'payment',
      sessionId: payment.id,
      amountInInr: payment.amount / 100,
      status: payment.status,
      paymentId: payment.paymentId,
      paymentMode: payment.paymentMode,
    });
  }
  for (const refund of money.refunds) {
    entries.push({ at: refund.createdAt, event: 'refund', refundId: refund.id, amountInInr: refund.amount / 100, status: refund.status, reason: refund.reason, requestedBy: refund.requestedBy });
  }
  for (const complaint of complaints) {
    entries.push({ at: complaint.createdAt, event: 'complaint', complaintId: complaint.id, filedBy: complaint.filedBy, party: complaint.party, category: complaint.category });
    if (complaint.resolvedAt && complaint.resolvedBy !== null) {
      entries.push({ at: complaint.resolvedAt, event: 'complaint_resolved', complaintId: complaint.id, resolvedBy: complaint.resolvedBy });
    }
  }
  // ISO times of one format sort as text; the sort is stable, so ties keep the order above.
  return entries.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
}
