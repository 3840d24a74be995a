import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { authUser } from '../../platform/auth/authenticate.ts';
import { errorBody, errorResponses } from '../../platform/errors.ts';
import { OrderBody, OrderResponse, PaymentSession, SessionParams, VerifyBody, VerifyRefusal, VerifyResponse, WebhookResponse } from './payments.schemas.ts';
import type { PaymentsService } from './payments.service.ts';

export async function paymentsRoutes(fastify: FastifyInstance, { service }: { service: PaymentsService }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['payments'];

  app.post('/order', {
    config: { idempotent: true },
    schema: {
      tags,
      summary: 'Create a provider order and a pending payment session',
      body: OrderBody,
      response: { 200: OrderResponse, ...errorResponses(400, 401, 403, 404, 409, 503) },
    },
  }, async (request) => service.createOrder(authUser(request), request.body));

  app.post('/verify', {
    config: { public: true },
    schema: {
      tags,
      summary: "Check the checkout's signature; a valid one completes the session and pays the ride",
      body: VerifyBody,
      response: { 200: VerifyResponse, 400: VerifyRefusal, ...errorResponses(503) },
    },
  }, async (request, reply) => {
    const result = await service.verify(request.body);
    if (result.success) return result;
    return reply.code(400).send({ success: false, ...errorBody(400, result.code, result.message) });
  });

  app.get('/session/:sessionId', {
    config: { public: true },
    schema: { tags, summary: 'Status of a payment session', params: SessionParams, response: { 200: PaymentSession, ...errorResponses(400, 404) } },
  }, async (request) => service.session(request.params.sessionId));

  // The webhook signature covers the exact bytes, so in this scope the body stays the raw text.
  await app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body.toString()));
    scope.withTypeProvider<TypeBoxTypeProvider>().post('/webhook', {
      config: { public: true },
      schema: {
        tags,
        summary: 'Provider events (X-Razorpay-Signature over the raw body, de-duplicated by x-razorpay-event-id)',
        response: { 200: WebhookResponse, ...errorResponses(400, 503) },
      },
    }, async (request) => ({
      status: await service.webhook(typeof request.body === 'string' ? request.body : '', header(request.headers['x-razorpay-signature']), header(request.headers['x-razorpay-event-id'])),
    }));
  });
}

const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
