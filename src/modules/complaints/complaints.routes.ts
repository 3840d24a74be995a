import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { authUser } from '../../platform/auth/authenticate.ts';
import { errorResponses } from '../../platform/errors.ts';
import { RideIdParams } from '../rides/rides.schemas.ts';
import { Complaint, ComplaintBody } from './complaints.schemas.ts';
import type { ComplaintsService } from './complaints.service.ts';

/** Complaints about a ride by its rider or driver (prefix /rides); operators resolve them under /admin. */
export async function complaintsRoutes(fastify: FastifyInstance, { service }: { service: ComplaintsService }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['complaints'];

  app.post('/:rideId/complaints', {
    schema: {
      tags,
      summary: "Complain about a ride you rode or drove; support answers in a notification",
      params: RideIdParams,
      body: ComplaintBody,
      response: { 200: Complaint, ...errorResponses(400, 401, 403, 404) },
    },
  }, async (request) => service.file(authUser(request), request.params.rideId, request.body));

  app.get('/:rideId/complaints', {
    schema: {
      tags,
      summary: 'Your complaints about a ride, oldest first, with their resolution (operators see every one)',
      params: RideIdParams,
      response: { 200: Type.Array(Complaint), ...errorResponses(400, 401, 403, 404) },
    },
  }, async (request) => service.onRide(authUser(request), request.params.rideId));
}
