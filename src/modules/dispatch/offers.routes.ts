import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { actorOf } from '../../platform/audit.ts';
import { authUser } from '../../platform/auth/authenticate.ts';
import { errorResponses } from '../../platform/errors.ts';
import { Ride } from '../rides/rides.schemas.ts';
import { DeclineBody, Offer, OfferIdParams } from './offers.schemas.ts';
import type { OffersService } from './offers.service.ts';

/** A driver's offers (prefix /drivers/me/offers): they also arrive over the realtime channel. */
export async function offersRoutes(fastify: FastifyInstance, { service }: { service: OffersService }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['dispatch'];
  const config = { roles: ['DRIVER'] as const };

  app.get('', {
    config,
    schema: { tags, summary: 'Your pending offers', response: { 200: Type.Array(Offer), ...errorResponses(401, 403) } },
  }, async (request) => service.pending(authUser(request).id));

  app.post('/:offerId/accept', {
    config,
    schema: {
      tags,
      summary: 'Accept an offer: the same answer (and the same single conditional update) as POST /rides/status with ACCEPTED',
      params: OfferIdParams,
      response: { 200: Ride, ...errorResponses(400, 401, 403, 404, 409) },
    },
  }, async (request) => service.accept(actorOf(request), request.params.offerId));

  app.post('/:offerId/decline', {
    config,
    schema: {
      tags,
      summary: 'Decline an offer; the ride goes to the next driver',
      params: OfferIdParams,
      body: DeclineBody,
      response: { 200: Offer, ...errorResponses(400, 401, 403, 404, 409) },
    },
  }, async (request) => service.decline(authUser(request), request.params.offerId, request.body?.reason));
}
