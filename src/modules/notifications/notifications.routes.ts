import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { authUser } from '../../platform/auth/authenticate.ts';
import { errorResponses } from '../../platform/errors.ts';
import { toPage } from '../../platform/pagination.ts';
import { MessageResponse } from '../../platform/schemas.ts';
import { HistoryQuery, HistoryResponse, NotificationIdParams } from './notifications.schemas.ts';
import type { NotificationsService } from './notifications.service.ts';

export async function notificationsRoutes(fastify: FastifyInstance, { service }: { service: NotificationsService }) {
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

  // Live notifications as server-sent events. New ones only: reconcile with /history on connect.
  const streams = new Set<ServerResponse>();
  app.addHook('preClose', async () => {
    for (const stream of streams) stream.end();
  });
  app.get('/stream', {
    schema: {
      tags,
      summary: 'Your new notifications as they happen (text/event-stream, one `notification` event each)',
      response: { 200: { description: 'An event stream', content: { 'text/event-stream': { schema: { type: 'string' } } } }, ...errorResponses(401) },
    },
  }, (request, reply) => {
    const { id: userId } = authUser(request);
    reply.hijack();
    const stream = reply.raw;
    stream.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
      'x-request-id': request.id,
    });
    stream.write('retry: 5000\n\n');
    const unfollow = service.follow(userId, (notification) => {
      stream.write(`id: ${notification.id}\nevent: notification\ndata: ${JSON.stringify(notification)}\n\n`);
    });
    const heartbeat = setInterval(() => stream.write(': keep-alive\n\n'), 25_000);
    streams.add(stream);
    request.raw.on('close', () => {
      unfollow();
      clearInterval(heartbeat);
      streams.delete(stream);
    });
  });

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
