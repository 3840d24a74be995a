import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { actorOf } from '../../platform/audit.ts';
import { ADMIN_ONLY } from '../../platform/auth/roles.ts';
import { errorResponses } from '../../platform/errors.ts';
import { Ride, RideIdParams } from '../rides/rides.schemas.ts';
import { PageOf } from './admin.schemas.ts';
import { AdminCancelBody, AdminRide, AdminRidesQuery } from './operations.schemas.ts';
import type { AdminRides } from './rides.service.ts';

/** Operators' work on rides (prefix /admin). */
export async function rideOperationsRoutes(fastify: FastifyInstance, { rides }: { rides: AdminRides }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['admin'];

  app.get('/rides', {
    config: ADMIN_ONLY,
    schema: {
      tags,
      summary: 'Every ride, newest first, by status, rider, driver and booking time',
      querystring: AdminRidesQuery,
      response: { 200: PageOf(Ride), ...errorResponses(400, 401, 403) },
    },
  }, async (request) => rides.list(request.query));

  app.get('/rides/:rideId', {
    config: ADMIN_ONLY,
    schema: {
      tags,
      summary: "One ride with its rider's and driver's names and everything that happened to it",
      params: RideIdParams,
      response: { 200: AdminRide, ...errorResponses(400, 401, 403, 404) },
    },
  }, async (request) => rides.detail(request.params.rideId));

  app.post('/rides/:rideId/cancel', {
    config: ADMIN_ONLY,
    schema: {
      tags,
      summary: 'Cancel a ride as an operator: no fee for the rider, both parties notified, audited',
      params: RideIdParams,
      body: AdminCancelBody,
      response: { 200: Ride, ...errorResponses(400, 401, 403, 404, 409) },
    },
  }, async (request) => rides.cancel(actorOf(request), request.params.rideId, request.body.reason));
}
