// The service's own texts in English, the source catalogue: what notifications, push messages and
// e-mails say, by key. ICU message syntax as the apps' catalogues (web/src/i18n): {name} fills in a
// value, {n, plural, …} and {x, select, …} choose, {fare, number, money} is rupees and
// {at, date, moment} a time in the service's zone (texts.ts defines those formats). A notification's
// text is a pair, `notice.<name>.title` and `notice.<name>.message`. hi.ts and kn.ts have exactly
// these keys with the same placeholders (test/platform/texts.test.ts checks).

export const en = {
  'notice.rideRequested.title': 'Looking for a driver',
  'notice.rideRequested.message': 'Your ride{trip, select, known { from {pickup} to {drop}} other {}} is booked for {fare, number, money}. We will tell you when a driver accepts.',
  'notice.rideBookedAhead.title': 'Ride booked ahead',
  'notice.rideBookedAhead.message': 'Your ride{trip, select, known { from {pickup} to {drop}} other {}} is booked for {at, date, moment} at {fare, number, money}, held whatever the demand then. We will tell you when a driver accepts.',
  'notice.rideAccepted.title': 'Driver on the way',
  'notice.rideAccepted.message': 'A driver accepted ride #{rideId} and is heading to your pickup point.',
  'notice.driverArriving.title': 'Your driver is arriving',
  'notice.driverArriving.message': 'Your driver is less than 300 m from the pickup point of ride #{rideId}.',
  'notice.rideStarted.title': 'Ride started',
  'notice.rideStarted.message': 'Ride #{rideId} has started. Have a good trip.',
  'notice.pickupConfirmed.title': 'Ride started',
  'notice.pickupConfirmed.message': 'Pickup confirmed for ride #{rideId}{trip, select, known { from {pickup} to {drop}} other {}}.',
  'notice.rideCompleted.title': 'Ride completed',
  'notice.rideCompleted.message': 'Ride #{rideId} is complete. Fare {fare, number, money} by {mode, select, CASH {cash} UPI {UPI} CARD {card} WALLET {wallet} NETBANKING {net banking} other {{mode}}}.',
  'notice.rideCancelled.title': 'Ride cancelled',
  'notice.rideCancelled.message': 'Ride #{rideId} was cancelled by {by, select, rider {the rider} driver {the driver} other {an operator}}.{withReason, select, yes { Reason: {reason}} other {}}',
  'notice.noDriverFound.title': 'No driver found yet',
  'notice.noDriverFound.message': 'No driver has taken ride #{rideId} yet. It stays open: a driver may still accept it, or you can cancel it at no charge.',
  'notice.driverNoShow.title': 'Finding you another driver',
  'notice.driverNoShow.message': 'The driver who took ride #{rideId} is not online; we are finding you another one now, at the same fare.',
  'notice.rideReassigned.title': 'Ride booked ahead given to another driver',
  'notice.rideReassigned.message': 'You were not online (or were on another ride) 15 minutes before ride #{rideId}, so it went back to dispatch.',
  'notice.rideReminder.title': 'Your ride is coming up',
  'notice.rideReminder.message': 'Your ride #{rideId}{trip, select, known { from {pickup} to {drop}} other {}} is in {minutes, plural, one {# minute} other {# minutes}} ({at, date, moment}).',
  'notice.driverReminder.title': 'A ride you took is coming up',
  'notice.driverReminder.message': 'Ride #{rideId}{trip, select, known { from {pickup} to {drop}} other {}} is in {minutes, plural, one {# minute} other {# minutes}} ({at, date, moment}). Be online 15 minutes before it.',
  'notice.documentApproved.title': 'Your {kind, select, licence {driving licence} registration {vehicle registration} insurance {insurance} other {permit}} is approved',
  'notice.documentApproved.message': 'An operator approved your {kind, select, licence {driving licence} registration {vehicle registration} insurance {insurance} other {permit}}, valid through {expiresOn, date, day}.',
  'notice.documentRejected.title': 'Your {kind, select, licence {driving licence} registration {vehicle registration} insurance {insurance} other {permit}} was not approved',
  'notice.documentRejected.message': 'An operator did not approve your {kind, select, licence {driving licence} registration {vehicle registration} insurance {insurance} other {permit}}. Reason: {reason}. Upload it again.',
  'notice.documentExpiring.title': 'Your {kind, select, licence {driving licence} registration {vehicle registration} insurance {insurance} other {permit}} expires soon',
  'notice.documentExpiring.message': 'Your {kind, select, licence {driving licence} registration {vehicle registration} insurance {insurance} other {permit}} is valid through {expiresOn, date, day}. Upload the renewed one before then to keep taking rides.',
  'notice.documentExpired.title': 'Your {kind, select, licence {driving licence} registration {vehicle registration} insurance {insurance} other {permit}} has expired',
  'notice.documentExpired.message': 'Your {kind, select, licence {driving licence} registration {vehicle registration} insurance {insurance} other {permit}} has expired. Upload a valid one for an operator to approve.',
  'notice.driverApproved.title': 'You are approved to drive',
  'notice.driverApproved.message': 'An operator approved your vehicle profile: you can now take rides.',
  'notice.driverRejected.title': 'Not approved to drive',
  'notice.driverRejected.message': 'An operator did not approve your vehicle profile. Reason: {reason}',
  'notice.complaintResolved.title': 'Complaint resolved',
  'notice.complaintResolved.message': 'Your complaint #{complaintId} about ride #{rideId} was resolved: {resolution}',
  'notice.reportClosed.title': 'Ride report closed',
  'notice.reportClosed.message': 'Support reviewed a report about ride #{rideId} and closed it.',
  'notice.refundSent.title': 'Refund on its way',
  'notice.refundSent.message': 'We are refunding {amount, number, money} for ride #{rideId}{why, select, cancellation {: it was cancelled after you paid} duplicate {: it was already paid} other {}}. It reaches your account in a few days.',
  'notice.paymentReceived.title': 'Payment received',
  'notice.paymentReceived.message': 'We received your payment of {amount, number, money}{forRide, select, yes { for ride #{rideId}} other {}}.',

  'push.offer.title': 'New ride: {fare, number, money}',
  'push.offer.body': 'Pickup{place, select, known { at {pickup}} other {}}, {km, number} km away ({minutes, number} min). Open the app to accept.',
  'push.sos.title': 'SOS on ride #{rideId}',
  'push.sos.body': 'The {party, select, rider {rider} other {driver}} pressed SOS. Open the incident desk to acknowledge it.',

  'mail.signupCode.subject': 'Your sign-up code',
  'mail.signupCode.text': 'Hello {name},\n\nYour sign-up code is {code}. It expires in 10 minutes.\n\nIf you did not ask for it, ignore this mail.',
  'mail.sosContact.subject': '{name} needs help: follow their ride',
  'mail.sosContact.text': '{name} pressed SOS during a ride. Follow the ride live: {url}\nOur operators have been alerted. If you think they are in danger, call the emergency services (112 in India).',
} as const;

export type TextKey = keyof typeof en;
export type Messages = Record<TextKey, string>;
