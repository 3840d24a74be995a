import type { TimelineEntry } from '../api/types.ts';
import { money } from '../ui/format.ts';
import { RIDE_TYPE_LABELS } from '../ui/labels.ts';
import { COMPLAINT_CATEGORY_LABELS } from './ops-labels.ts';

const km = (value: number | null) => (value === null ? '' : ` ${value.toFixed(1)} km from the pickup`);

/** Who took a step, when an operator took it for the rider or driver. */
const byOperator = (operator: number | null) => (operator === null ? '' : `, by operator ${operator}`);

/** One event of a ride's timeline in words; a new event type on the server is a type error here until it has them. */
export function describeEvent(entry: TimelineEntry): string {
  switch (entry.event) {
    case 'booked':
      return `Booked by rider ${entry.riderId}: ${RIDE_TYPE_LABELS[entry.rideType]}, ${money(entry.fare)} (pricing version ${entry.pricingVersion})`;
    case 'offered':
      return `Offered to driver ${entry.driverId},${km(entry.pickupDistanceKm)}: ${entry.outcome}${entry.declineReason ? ` (“${entry.declineReason}”)` : ''}`;
    case 'no_driver_found':
      return 'The rider was told no driver was found; the request stayed open';
    case 'accepted':
      return `Accepted by driver ${entry.driverId}${entry.pickupDistanceKm === null ? '' : `,${km(entry.pickupDistanceKm)}`}${byOperator(entry.requestedBy)}`;
    case 'picked_up':
      return `Rider picked up${byOperator(entry.requestedBy)}`;
    case 'positions':
      return `Driver's last recorded position: ${entry.lat.toFixed(5)}, ${entry.lon.toFixed(5)}`;
    case 'completed':
      return `Completed: ${money(entry.fare)}, ${entry.paymentMode}${byOperator(entry.requestedBy)}`;
    case 'cancelled':
      return `Cancelled by the ${entry.by}${entry.requestedBy === null ? '' : ` (operator ${entry.requestedBy})`}${entry.reason ? ` (“${entry.reason}”)` : ''}${entry.fee ? `, fee ${money(entry.fee)}` : ', no fee'}`;
    case 'payment':
      return `Online payment ${entry.status}: ${money(entry.amountInInr)}${entry.paymentMode ? ` by ${entry.paymentMode}` : ''}${entry.paymentId ? ` (${entry.paymentId})` : ''}`;
    case 'refund':
      return `Refund ${entry.status}: ${money(entry.amountInInr)} (${entry.reason}${byOperator(entry.requestedBy)})`;
    case 'complaint':
      return `Complaint ${entry.complaintId} by the ${entry.party} (user ${entry.filedBy}): ${COMPLAINT_CATEGORY_LABELS[entry.category].toLowerCase()}`;
    case 'complaint_resolved':
      return `Complaint ${entry.complaintId} resolved by operator ${entry.resolvedBy}`;
  }
}
