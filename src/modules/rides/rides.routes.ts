import type { FastifyInstance, FastifySchemaValidationError } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { authUser } from '../../platform/auth/authenticate.ts';
import { DRIVER_ROLES, RIDER_ROLES } from '../../platform/auth/roles.ts';
import { AppError, errorResponses } from '../../platform/errors.ts';
import { toPage } from '../../platform/pagination.ts';
import type { DriversService } from '../drivers/drivers.service.ts';
import {
  BookBody,
  CancelBody,
  EstimateQuery,
  FareEstimate,
  FeedbackBody,
  ListQuery,
  LocationBody,
  NearbyDriver,
  NearbyQuery,
  PublicRide,
  RATING_MESSAGE,
  Ride,
  RideIdParams,
  RideStatusView,
  StatusBody,
} from './rides.schemas.ts';
import type { RidesService } from './rides.service.ts';

const NEXT_CURSOR_HEADER = 'x-next-cursor';
const pagedHeaders = Type.Object({ [NEXT_CURSOR_HEADER]: Type.Optional(Type.String({ description: 'Pass as `cursor` for the next page' })) });

const LocationResponse = Type.Object({
  id: Type.Integer(),
  status: Type.String(),
  riderId: Type.Integer(),
  driverId: Type.Integer(),
  driverLat: Type.Number(),
  driverLon: Type.Number(),
  driverLocationUpdatedAt: Type.String({ format: 'date-time' }),
});

// Any problem with the rating, including a missing body, answers with the spec's exact sentence.
function feedbackErrors(errors: FastifySchemaValidationError[], dataVar: string): Error {
  const aboutRating = errors.some(
    (e) => e.instancePath === '/rating' || e.instancePath === '' || (e.keyword === 'required' && e.params.missingProperty === 'rating'),
  );
  if (dataVar === 'body' && aboutRating) return new AppError(400, 'VALIDATION_FAILED', RATING_MESSAGE);
  return new AppError(400, 'VALIDATION_FAILED', errors.map((e) => `${dataVar}${e.instancePath} ${e.message ?? 'is invalid'}`).join('; '));
}

export async function ridesRoutes(fastify: FastifyInstance, { rides, drivers }: { rides: RidesService; drivers: DriversService }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['rides'];
  const open = { public: true };

  app.get('/estimate', {
    config: open,
    schema: { tags, summary: 'Fare quote; a booking of the same trip is charged `fare`', querystring: EstimateQuery, response: { 200: FareEstimate, ...errorResponses(400) } },
  }, async (request) => rides.estimate(request.query));

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
    return drivers.nearby({ lat, lon }, radiusKm, limit);
  });

  app.get('/requested', {
    config: open,
    schema: {
      tags,
      summary: 'Open ride requests, newest first',
      querystring: ListQuery,
      response: { 200: { ...Type.Array(PublicRide), headers: pagedHeaders }, ...errorResponses(400) },
    },
  }, async (request, reply) => {
    const { rides: list, nextCursor } = await rides.requested(toPage(request.query));
    if (nextCursor) void reply.header(NEXT_CURSOR_HEADER, nextCursor);
    return list;
  });

  app.get('/status/:rideId', {
    config: open,
    schema: { tags, summary: "A ride's status and its driver's latest position", params: RideIdParams, response: { 200: RideStatusView, ...errorResponses(400, 404) } },
  }, async (request) => rides.publicStatus(request.params.rideId));

  app.post('/status/:rideId', {
    schema: {
      tags,
      summary: 'Accept (driverId), pick up (startOtp), complete (endOtp) or cancel a ride',
      params: RideIdParams,
      body: StatusBody,
      response: { 200: Ride, ...errorResponses(400, 401, 403, 404, 409, 429) },
    },
  }, async (request) => rides.changeStatus(authUser(request), request.params.rideId, request.body));

  app.post('/book', {
    config: { roles: RIDER_ROLES },
    schema: { tags, summary: 'Book a ride; the answer carries startOtp and endOtp', body: BookBody, response: { 200: Ride, ...errorResponses(400, 401, 403) } },
  }, async (request) => rides.book(authUser(request), request.body));

  app.get('/history', {
    schema: {
      tags,
      summary: 'Rides you booked or drove, newest first',
      querystring: ListQuery,
      response: { 200: { ...Type.Array(Ride), headers: pagedHeaders }, ...errorResponses(400, 401) },
    },
  }, async (request, reply) => {
    const { rides: list, nextCursor } = await rides.history(authUser(request), toPage(request.query));
    if (nextCursor) void reply.header(NEXT_CURSOR_HEADER, nextCursor);
    return list;
  });

  app.post('/feedback/:rideId', {
    schemaErrorFormatter: feedbackErrors,
    schema: {
      tags,
      summary: 'Rate a completed ride (rider rates the driver, driver rates the rider)',
      params: RideIdParams,
      body: FeedbackBody,
      response: { 200: Ride, ...errorResponses(400, 401, 403, 404, 409) },
    },
  }, async (request) => rides.feedback(authUser(request), request.params.rideId, request.body.rating, request.body.comment));

  app.post('/cancel/:rideId', {
    schema: {
      tags,
      summary: 'Cancel a ride before completion; a fee may apply',
      params: RideIdParams,
      body: CancelBody,
      response: { 200: Ride, ...errorResponses(400, 401, 403, 404, 409) },
    },
  }, async (request) => rides.cancel(authUser(request), request.params.rideId, request.body?.reason));

  app.post('/location/:rideId', {
    config: { roles: DRIVER_ROLES },
    schema: {
      tags,
      summary: "The ride's driver reports a position (every 5–10 s while ACCEPTED or PICKED)",
      params: RideIdParams,
      body: LocationBody,
      response: { 200: LocationResponse, ...errorResponses(400, 401, 403, 404, 409) },
    },
  }, async (request) => rides.updateLocation(authUser(request), request.params.rideId, request.body));
}
