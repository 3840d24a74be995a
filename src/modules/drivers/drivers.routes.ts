import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { authUser } from '../../platform/auth/authenticate.ts';
import { errorResponses, notFound } from '../../platform/errors.ts';
import { MessageResponse } from '../../platform/schemas.ts';
import type { DriverProfiles } from './driver-profiles.service.ts';
import { DriverLocation, DriverProfile, PositionBody, ProfileBody } from './drivers.schemas.ts';
import type { DriversService } from './drivers.service.ts';

/** A driver's own availability between rides: report a position to be visible, delete it to go offline. */
export async function driversRoutes(fastify: FastifyInstance, { service, profiles }: { service: DriversService; profiles: DriverProfiles }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['drivers'];
  const config = { roles: ['DRIVER'] as const };

  app.put('/me/location', {
    config,
    schema: {
      tags,
      summary: 'Report your position; riders see you in nearby search for two minutes (at most DRIVER_POSITIONS_PER_SECOND a second, every way of reporting together)',
      body: PositionBody,
      response: { 200: DriverLocation, ...errorResponses(400, 401, 403, 429) },
    },
  }, async (request) => service.view(await service.reportPosition(authUser(request).id, request.body)));

  app.get('/me/location', {
    config,
    schema: { tags, summary: 'Your current visible position', response: { 200: DriverLocation, ...errorResponses(401, 403, 404) } },
  }, async (request) => {
    const position = await service.position(authUser(request).id);
    if (!position) throw notFound('You are not visible to riders; report a position first');
    return service.view(position);
  });

  app.delete('/me/location', {
    config,
    schema: { tags, summary: 'Go offline: riders stop seeing you', response: { 200: MessageResponse, ...errorResponses(401, 403) } },
  }, async (request) => {
    await service.goOffline(authUser(request).id);
    return { message: 'You are offline; riders no longer see you.' };
  });

  app.get('/me/profile', {
    config,
    schema: { tags, summary: 'Your vehicle and your approval', response: { 200: DriverProfile, ...errorResponses(401, 403, 404) } },
  }, async (request) => profiles.get(authUser(request).id));

  app.put('/me/profile', {
    config,
    schema: {
      tags,
      summary: 'Set your vehicle; offers match it to ride types (a new vehicle needs approval again)',
      body: ProfileBody,
      response: { 200: DriverProfile, ...errorResponses(400, 401, 403) },
    },
  }, async (request) => profiles.save(authUser(request).id, request.body));
}
