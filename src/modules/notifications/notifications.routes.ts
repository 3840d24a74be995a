import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { authUser } from '../../platform/auth/authenticate.ts';
import { errorResponses } from '../../platform/errors.ts';
import { toPage } from '../../platform/pagination.ts';
import { MessageResponse } from '../../platform/schemas.ts';
import { HistoryQuery, HistoryResponse, NotificationIdParams } from './notifications.schemas.ts';
import type { NotificationsService } from './notifications.service.ts';
import type { UserMessages } from '../../events.ts';
import type { SseStreams } from '../../platform/realtime/sse.ts';

export async function notificationsRoutes(fastify: FastifyInstance, { service, streams }: { service: NotificationsService; streams: SseStreams<UserMessages> }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['notifications'];

  app.get('/history', {
    schema: {
      tags,
      summary: "The caller's notifications, newest first",
      querystring: HistoryQuery,
      response: { 200: HistoryResponse, ...errorResponses(400, 401) },
    },
  }, async (request) => service.history(authUser(request).id, toPage(request.query)));

  app.get('/stream', {
    schema: {
      tags,
      summary: 'Your new notifications as they happen (text/event-stream, one `notification` event each; send Last-Event-ID to get what you missed)',
      response: { 200: { description: 'An event stream', content: { 'text/event-stream': { schema: { type: 'string' } } } }, ...errorResponses(401) },
    },
  }, (request, reply) => streams.open(request, reply, authUser(request).id, { type: 'notification.created', name: 'notification' }));

  app.post('/mark-read/:notificationId', {
    schema: {
      tags,
      summary: 'Mark one of your notifications read',
      params: NotificationIdParams,
      response: { 200: MessageResponse, ...errorResponses(400, 401, 404) },
    },
  }, async (request) => ({ message: await service.markRead(authUser(request).id, request.params.notificationId) }));

  app.post('/mark-all-read', {
    schema: {
      tags,
      summary: 'Mark all your notifications read',
      response: { 200: MessageResponse, ...errorResponses(401) },
    },
  }, async (request) => ({ message: await service.markAllRead(authUser(request).id) }));
}
