import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { actorOf } from '../../platform/audit.ts';
import { ADMIN_ONLY } from '../../platform/auth/roles.ts';
import { errorResponses } from '../../platform/errors.ts';
import { DriverProfile, DriversByApprovalQuery } from '../drivers/drivers.schemas.ts';
import { PageOf } from './admin.schemas.ts';
import type { AdminDrivers } from './drivers.service.ts';
import { AdminDriver, DriverIdParams, RejectBody } from './operations.schemas.ts';

/** The driver approval queue (prefix /admin). */
export async function driverApprovalRoutes(fastify: FastifyInstance, { drivers }: { drivers: AdminDrivers }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['admin'];

  app.get('/drivers', {
    config: ADMIN_ONLY,
    schema: {
      tags,
      summary: 'Drivers with a vehicle profile, newest first, by approval (pending: the queue)',
      querystring: DriversByApprovalQuery,
      response: { 200: PageOf(AdminDriver), ...errorResponses(400, 401, 403) },
    },
  }, async (request) => drivers.list(request.query));

  app.post('/drivers/:driverId/approve', {
    config: ADMIN_ONLY,
    schema: {
      tags,
      summary: 'Approve a driver (needed for offers and accepts when DRIVER_APPROVAL_REQUIRED is on); the driver is notified',
      params: DriverIdParams,
      response: { 200: DriverProfile, ...errorResponses(400, 401, 403, 404) },
    },
  }, async (request) => drivers.approve(actorOf(request), request.params.driverId));

  app.post('/drivers/:driverId/reject', {
    config: ADMIN_ONLY,
    schema: {
      tags,
      summary: 'Reject a driver with a reason the driver reads in a notification',
      params: DriverIdParams,
      body: RejectBody,
      response: { 200: DriverProfile, ...errorResponses(400, 401, 403, 404) },
    },
  }, async (request) => drivers.reject(actorOf(request), request.params.driverId, request.body.reason));
}
