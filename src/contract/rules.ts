// The service's own arithmetic that clients show (pure functions, no I/O), so an app never copies
// a rule the server decides: the ETA the rider sees, which payment modes go online, while a ride
// shows where its driver is, how many stops a booking may have.
export { durationMinutes, MAX_STOPS, roadDistanceKm } from '../modules/pricing/pricing.model.ts';
export { parseOnlinePaymentMode } from '../platform/vocabulary.ts';
export { haversineKm } from '../platform/geo/geo.ts';
export { livePosition } from '../modules/rides/live-position.ts';
