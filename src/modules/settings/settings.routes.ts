import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { authUser } from '../../platform/auth/authenticate.ts';
import { errorResponses } from '../../platform/errors.ts';
import { Settings, SettingsUpdate } from './settings.schemas.ts';
import type { SettingsService } from './settings.service.ts';

export async function settingsRoutes(fastify: FastifyInstance, { service }: { service: SettingsService }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['settings'];

  app.get('', {
    schema: { tags, summary: 'Your settings (defaults until you change them)', response: { 200: Settings, ...errorResponses(401) } },
  }, async (request) => service.get(authUser(request).id));

  app.put('', {
    schema: {
      tags,
      summary: 'Change any subset of your settings',
      body: SettingsUpdate,
      response: { 200: Settings, ...errorResponses(400, 401) },
    },
  }, async (request) => service.update(authUser(request).id, request.body));
}
