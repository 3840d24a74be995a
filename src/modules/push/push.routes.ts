import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { authUser } from '../../platform/auth/authenticate.ts';
import { errorResponses } from '../../platform/errors.ts';
import { MessageResponse } from '../../platform/schemas.ts';
import type { PushSubscriptions } from './push-subscriptions.service.ts';
import { PushEndpointBody, PushKey, PushSubscribed, PushSubscriptionBody } from './push.schemas.ts';

/** Web Push: the key browsers subscribe with, and a browser's subscription (docs/push.md). */
export async function pushRoutes(fastify: FastifyInstance, { subscriptions }: { subscriptions: PushSubscriptions }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['push'];

  app.get('/key', {
    config: { public: true },
    schema: { tags, summary: "The service's VAPID public key: the applicationServerKey a browser subscribes with", response: { 200: PushKey } },
  }, async () => subscriptions.key());

  app.post('/subscriptions', {
    schema: {
      tags,
      summary: "Keep this browser's push subscription (PushSubscription.toJSON()): offers, ride changes and SOS alerts reach it while the app is closed",
      body: PushSubscriptionBody,
      response: { 200: PushSubscribed, ...errorResponses(400, 401) },
    },
  }, async (request) => subscriptions.subscribe(authUser(request), request.body));

  app.delete('/subscriptions', {
    schema: {
      tags,
      summary: 'Forget a browser\'s subscription, by its endpoint (the apps call it on sign-out)',
      body: PushEndpointBody,
      response: { 200: MessageResponse, ...errorResponses(400, 401) },
    },
  }, async (request) => subscriptions.unsubscribe(authUser(request), request.body.endpoint));
}
