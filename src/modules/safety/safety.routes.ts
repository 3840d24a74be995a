import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { authUser } from '../../platform/auth/authenticate.ts';
import { errorResponses } from '../../platform/errors.ts';
import { MessageResponse } from '../../platform/schemas.ts';
import { RideIdParams } from '../rides/rides.schemas.ts';
import { SharedTrip, ShareLink, ShareTokenParams } from './safety.schemas.ts';
import type { TripShares } from './trip-shares.service.ts';

/** Where this request reached the service (behind a trusted proxy, as the proxy says): links start there. */
export const originOf = (request: FastifyRequest): string => `${request.protocol}://${request.host}`;

/** Trip sharing: the rider's link under /rides, the public view under /share (its page is served with the web apps). */
export async function safetyRoutes(fastify: FastifyInstance, { shares }: { shares: TripShares }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['safety'];

  app.post('/rides/:rideId/share', {
    schema: {
      tags,
      summary: 'Share a ride under way: a link to a page with the driver, the vehicle, the live position and the ETA, for people without the app',
      params: RideIdParams,
      response: { 200: ShareLink, ...errorResponses(400, 401, 403, 404, 409) },
    },
  }, async (request) => shares.share(authUser(request), request.params.rideId, originOf(request)));

  app.delete('/rides/:rideId/share', {
    schema: {
      tags,
      summary: "End every sharing link of the ride at once",
      params: RideIdParams,
      response: { 200: MessageResponse, ...errorResponses(400, 401, 403, 404) },
    },
  }, async (request) => shares.revoke(authUser(request), request.params.rideId));

  app.get('/share/:token.json', {
    config: { public: true },
    schema: {
      tags,
      summary: "What a sharing link shows: the driver's first name, the vehicle, the position and ETA, the ride's status; 404 once it ended",
      params: ShareTokenParams,
      response: { 200: SharedTrip, ...errorResponses(400, 404) },
    },
  }, async (request, reply) => {
    // A browser or proxy keeps no copy: a revoked link must stop showing at once.
    void reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
    return shares.view(request.params.token);
  });
}
