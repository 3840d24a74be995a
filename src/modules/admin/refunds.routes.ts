import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { actorOf } from '../../platform/audit.ts';
import { ADMIN_ONLY } from '../../platform/auth/roles.ts';
import { errorResponses } from '../../platform/errors.ts';
import { RideIdParams } from '../rides/rides.schemas.ts';
import { RefundBody, RideRefunds } from './refunds.schemas.ts';
import type { AdminRefunds } from './refunds.service.ts';

/** Operators' refunds of ride payments (prefix /admin). */
export async function refundsRoutes(fastify: FastifyInstance, { refunds }: { refunds: AdminRefunds }) {
  fastify.withTypeProvider<TypeBoxTypeProvider>().post('/rides/:rideId/refund', {
    config: ADMIN_ONLY,
    schema: {
      tags: ['admin'],
      summary: "Refund part or all of a ride's online payments through the provider (docs/payments.md), audited",
      params: RideIdParams,
      body: RefundBody,
      response: { 200: RideRefunds, ...errorResponses(400, 401, 403, 404, 409) },
    },
  }, async (request) => refunds.refund(actorOf(request), request.params.rideId, request.body));
}
