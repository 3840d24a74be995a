import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { authUser } from '../../platform/auth/authenticate.ts';
import { errorResponses } from '../../platform/errors.ts';
import { RideIdParams } from '../rides/rides.schemas.ts';
import { AccountPhone, CallReceipt, PhoneBody, PhoneCodeBody, PhoneCodeSent } from './phones.schemas.ts';
import type { AccountPhones } from './phones.service.ts';
import type { RideCalls } from './ride-calls.service.ts';

/**
 * An account's phone number and its SMS verification (under /auth, so the stricter per-address budget
 * of AUTH_RATE_LIMIT_PER_MINUTE counts these too), and the masked call between a ride's rider and driver.
 */
export async function phoneRoutes(fastify: FastifyInstance, { phones, calls }: { phones: AccountPhones; calls: RideCalls }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['safety'];

  app.get('/auth/phone', {
    schema: { tags, summary: 'Your phone number (verified, and one waiting for its code): shown to you alone', response: { 200: AccountPhone, ...errorResponses(401) } },
  }, async (request) => phones.of(authUser(request)));

  app.post('/auth/phone', {
    schema: {
      tags,
      summary: 'Send a six-digit code to a phone number by SMS (to the server log without SMS_URL); it expires in 10 minutes',
      body: PhoneBody,
      response: { 200: PhoneCodeSent, ...errorResponses(400, 401, 429, 503) },
    },
  }, async (request) => phones.requestCode(authUser(request), request.body.phone));

  app.post('/auth/phone/verify', {
    schema: {
      tags,
      summary: 'Verify the number with its code: it becomes the number calls reach you on (5 tries per code)',
      body: PhoneCodeBody,
      response: { 200: AccountPhone, ...errorResponses(400, 401) },
    },
  }, async (request) => phones.verify(authUser(request), request.body.code));

  app.post('/rides/:rideId/call', {
    schema: {
      tags,
      summary: "Call the ride's driver (or rider) through the service's virtual number: your phone rings, then theirs, and neither number is shown",
      params: RideIdParams,
      response: { 200: CallReceipt, ...errorResponses(400, 401, 403, 404, 409, 429, 503) },
    },
  }, async (request) => calls.call(authUser(request), request.params.rideId));
}
