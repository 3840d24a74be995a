import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { authUser } from '../../platform/auth/authenticate.ts';
import { errorResponses } from '../../platform/errors.ts';
import { Ride } from '../rides/rides.schemas.ts';
import { UpcomingRideParams, UpcomingRides as UpcomingSchema } from './offers.schemas.ts';
import type { UpcomingRides } from './upcoming.service.ts';

/** Rides booked ahead for a driver (prefix /drivers/me/upcoming). */
export async function upcomingRoutes(fastify: FastifyInstance, { service }: { service: UpcomingRides }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['dispatch'];
  const config = { roles: ['DRIVER'] as const };

  app.get('', {
    config,
    schema: { tags, summary: 'Rides booked ahead you could take, and the ones you took', response: { 200: UpcomingSchema, ...errorResponses(401, 403) } },
  }, async (request) => service.list(authUser(request).id));

  app.post('/:rideId/accept', {
    config,
    schema: {
      tags,
      summary: 'Take a ride booked ahead: it is yours unless it overlaps a ride you hold (409 SCHEDULE_OVERLAP); be online 15 minutes before its time or it goes back to dispatch',
      params: UpcomingRideParams,
      response: { 200: Ride, ...errorResponses(400, 401, 403, 404, 409) },
    },
  }, async (request) => service.take(authUser(request).id, request.params.rideId));
}
