import type { FastifyInstance, FastifySchemaValidationError } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { actorOf } from '../../platform/audit.ts';
import { authUser } from '../../platform/auth/authenticate.ts';
import { DRIVER_ROLES, RIDER_ROLES } from '../../platform/auth/roles.ts';
import { AppError, errorResponses } from '../../platform/errors.ts';
import { NearbyDriver } from '../../platform/geo/driver-index.ts';
import { NEXT_CURSOR_HEADER, PagedHeaders, toPage } from '../../platform/pagination.ts';
import { FareEstimate } from '../pricing/pricing.schemas.ts';
import { SignedReceipt } from './receipt.schemas.ts';
import { StopParams } from './ride-stops.schemas.ts';
import { ConfirmDestinationBody, DestinationBody, DestinationQuote } from './destination-change.schemas.ts';
import type { RideServices } from './rides.module.ts';
import {
  ChargeBody,
  BookBody,
  CancelBody,
  CancellationQuote,
  EstimateQuery,
  FeedbackBody,
  ListQuery,
  LocationBody,
  LocationResponse,
  NearbyQuery,
  PaymentModeBody,
  PublicRide,
  RATING_MESSAGE,
  Ride,
  RideIdParams,
  RideStatusResponse,
  StatusBody,
} from './rides.schemas.ts';

// Any problem with the rating, including a missing body, answers with the spec's exact sentence.
function feedbackErrors(errors: FastifySchemaValidationError[], dataVar: string): Error {
  const aboutRating = errors.some(
    (e) => e.instancePath === '/rating' || e.instancePath === '' || (e.keyword === 'required' && e.params.missingProperty === 'rating'),
  );
  if (dataVar === 'body' && aboutRating) return new AppError(400, 'VALIDATION_FAILED', RATING_MESSAGE);
  return new AppError(400, 'VALIDATION_FAILED', errors.map((e) => `${dataVar}${e.instancePath} ${e.message ?? 'is invalid'}`).join('; '));
}

export async function ridesRoutes(fastify: FastifyInstance, rides: RideServices) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['rides'];
  const open = { public: true };

  app.get('/estimate', {
    config: open,
    schema: { tags, summary: 'Fare quote; a booking of the same trip is charged `fare`', querystring: EstimateQuery, response: { 200: FareEstimate, ...errorResponses(400) } },
  }, async (request) => rides.quotes.estimate(request.query));

  app.get('/drivers/nearby', {
    config: open,
    schema: {
      tags,
      summary: 'Drivers with a fresh position within radiusKm, nearest first',
      querystring: NearbyQuery,
      response: { 200: Type.Array(NearbyDriver), ...errorResponses(400) },
    },
  }, async (request) => {
    const { lat, lon, radiusKm, limit } = request.query;
    return rides.drivers.nearby({ lat, lon }, radiusKm, limit);
  });

  app.get('/requested', {
    config: open,
    schema: {
      tags,
      summary: 'Open ride requests, newest first',
      querystring: ListQuery,
      response: { 200: { ...Type.Array(PublicRide), headers: PagedHeaders }, ...errorResponses(400) },
    },
  }, async (request, reply) => {
    const { rides: list, nextCursor } = await rides.queries.requested(toPage(request.query));
    if (nextCursor) void reply.header(NEXT_CURSOR_HEADER, nextCursor);
    return list;
  });

  app.get('/status/:rideId', {
    // Anyone may follow a ride; with a token, its rider and driver get their whole view of it.
    config: { public: true, identifies: true },
    schema: {
      tags,
      summary: "A ride's status and, while it is public, its driver's position; the whole ride for its rider (with codes) and driver",
      params: RideIdParams,
      response: { 200: RideStatusResponse, ...errorResponses(400, 401, 404) },
    },
  }, async (request) => rides.queries.status(request.user, request.params.rideId));

  app.post('/status/:rideId', {
    schema: {
      tags,
      summary: 'Accept (driverId), pick up (startOtp), complete (endOtp) or cancel a ride',
      params: RideIdParams,
      body: StatusBody,
      response: { 200: Ride, ...errorResponses(400, 401, 403, 404, 409, 429) },
    },
  }, async (request) => rides.lifecycle.changeStatus(actorOf(request), request.params.rideId, request.body));

  app.post('/book', {
    config: { roles: RIDER_ROLES, idempotent: true },
    schema: { tags, summary: 'Book a ride; the answer carries startOtp and endOtp', body: BookBody, response: { 200: Ride, ...errorResponses(400, 401, 403, 409) } },
  }, async (request) => rides.booking.book(authUser(request), request.body));

  app.get('/history', {
    schema: {
      tags,
      summary: 'Rides you booked or drove, newest first, in your view of them',
      querystring: ListQuery,
      response: { 200: { ...Type.Array(Ride), headers: PagedHeaders }, ...errorResponses(400, 401) },
    },
  }, async (request, reply) => {
    const { rides: list, nextCursor } = await rides.queries.history(authUser(request), toPage(request.query));
    if (nextCursor) void reply.header(NEXT_CURSOR_HEADER, nextCursor);
    return list;
  });

  app.get('/active', {
    schema: {
      tags,
      summary: 'Your rides in REQUESTED, ACCEPTED or PICKED, as rider or driver, in your view (with your codes as the rider)',
      response: { 200: Type.Array(Ride), ...errorResponses(401) },
    },
  }, async (request) => rides.queries.active(authUser(request)));

  app.post('/feedback/:rideId', {
    schemaErrorFormatter: feedbackErrors,
    schema: {
      tags,
      summary: 'Rate a completed ride (rider rates the driver, driver rates the rider)',
      params: RideIdParams,
      body: FeedbackBody,
      response: { 200: Ride, ...errorResponses(400, 401, 403, 404, 409) },
    },
  }, async (request) => rides.feedback.give(authUser(request), request.params.rideId, request.body.rating, request.body.comment));

  app.get('/:rideId/receipt', {
    schema: {
      tags,
      summary: "A completed ride's receipt (or a rider's cancellation fee), signed with the key at /.well-known/receipt-keys: for the ride's rider, its driver and operators",
      params: RideIdParams,
      response: { 200: SignedReceipt, ...errorResponses(400, 401, 403, 404, 409) },
    },
  }, async (request) => rides.receipts.receipt(authUser(request), request.params.rideId));

  app.post('/:rideId/payment-mode', {
    config: { roles: RIDER_ROLES },
    schema: {
      tags,
      summary: 'The rider changes how they pay: any mode before the ride ends; afterwards only CASH, which pays the driver there and then (the ride is PAID)',
      params: RideIdParams,
      body: PaymentModeBody,
      response: { 200: Ride, ...errorResponses(400, 401, 403, 404, 409) },
    },
  }, async (request) => rides.paymentMode.change(authUser(request), request.params.rideId, request.body.paymentMode));

  app.post('/cancel/:rideId', {
    schema: {
      tags,
      summary: 'Cancel a ride before completion; a fee may apply',
      params: RideIdParams,
      body: CancelBody,
      response: { 200: Ride, ...errorResponses(400, 401, 403, 404, 409) },
    },
  }, async (request) => rides.cancellation.cancel(actorOf(request), request.params.rideId, request.body?.reason));

  app.get('/cancel/:rideId', {
    schema: {
      tags,
      summary: 'What cancelling the ride now would cost you (the fee POST /rides/cancel would charge)',
      params: RideIdParams,
      response: { 200: CancellationQuote, ...errorResponses(400, 401, 403, 404, 409) },
    },
  }, async (request) => rides.cancellation.quote(authUser(request), request.params.rideId));

  app.post('/location/:rideId', {
    config: { roles: DRIVER_ROLES },
    schema: {
      tags,
      summary: "The ride's driver reports a position (every 5–10 s while ACCEPTED or PICKED; at most DRIVER_POSITIONS_PER_SECOND a second)",
      params: RideIdParams,
      body: LocationBody,
      response: { 200: LocationResponse, ...errorResponses(400, 401, 403, 404, 409, 429) },
    },
  }, async (request) => rides.tracking.report(authUser(request), request.params.rideId, request.body));

  app.post('/:rideId/charges', {
    config: { roles: DRIVER_ROLES },
    schema: {
      tags,
      summary: "The ride's driver adds a toll or parking fee while PICKED (passed through at cost, capped per ride by the pricing version); the rider hears it at once",
      params: RideIdParams,
      body: ChargeBody,
      response: { 200: Ride, ...errorResponses(400, 401, 403, 404, 409) },
    },
  }, async (request) => rides.charges.add(authUser(request), request.params.rideId, request.body));

  app.post('/:rideId/stops/:index/arrived', {
    config: { roles: DRIVER_ROLES },
    schema: {
      tags,
      summary: "The ride's driver marks a stop reached while PICKED, in order (again: the ride as it is); waiting there is charged beyond the free minutes until the ride leaves it; the rider hears at once",
      params: StopParams,
      response: { 200: Ride, ...errorResponses(400, 401, 403, 404, 409) },
    },
  }, async (request) => rides.stops.arrived(authUser(request), request.params.rideId, request.params.index));

  app.post('/:rideId/destination', {
    config: { roles: RIDER_ROLES },
    schema: {
      tags,
      summary: "The ride's rider asks what going somewhere else would cost, while ACCEPTED or PICKED: a quote to confirm within 5 minutes; the ride does not change",
      params: RideIdParams,
      body: DestinationBody,
      response: { 200: DestinationQuote, ...errorResponses(400, 401, 403, 404, 409) },
    },
  }, async (request) => rides.destination.quote(authUser(request), request.params.rideId, request.body));

  app.post('/:rideId/destination/confirm', {
    config: { roles: RIDER_ROLES },
    schema: {
      tags,
      summary: 'The rider confirms a destination quote, once: the ride goes there at the quoted fare and the driver hears at once',
      params: RideIdParams,
      body: ConfirmDestinationBody,
      response: { 200: Ride, ...errorResponses(400, 401, 403, 404, 409) },
    },
  }, async (request) => rides.destination.confirm(authUser(request), request.params.rideId, request.body.quoteId));
}
