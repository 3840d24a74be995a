import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { authUser } from '../../platform/auth/authenticate.ts';
import { errorResponses } from '../../platform/errors.ts';
import type { DriverEarnings } from './driver-earnings.service.ts';
import { Earnings, EarningsQuery } from './earnings.schemas.ts';

/** A driver's earnings (prefix /drivers/me): read from the rides they drove, which this module owns. */
export async function earningsRoutes(fastify: FastifyInstance, { earnings }: { earnings: DriverEarnings }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get('/earnings', {
    config: { roles: ['DRIVER'] as const },
    schema: {
      tags: ['drivers'],
      summary: "Your rides, fares, driver's share, tolls and penalties from `from` to `to` (SERVICE_TIMEZONE days; default this week), per day and in total",
      querystring: EarningsQuery,
      response: { 200: Earnings, ...errorResponses(400, 401, 403) },
    },
  }, async (request) => earnings.earnings(authUser(request), request.query));
}
