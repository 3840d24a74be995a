import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { authUser } from '../../platform/auth/authenticate.ts';
import { errorResponses } from '../../platform/errors.ts';
import { AccountPhone, PhoneBody, PhoneCodeBody, PhoneCodeSent } from './phones.schemas.ts';
import type { AccountPhones } from './phones.service.ts';

/** An account's phone number and its SMS verification. Under /auth, so the stricter per-address budget of AUTH_RATE_LIMIT_PER_MINUTE counts these too. */
export async function phoneRoutes(fastify: FastifyInstance, { phones }: { phones: AccountPhones }) {
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
}
