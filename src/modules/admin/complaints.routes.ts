import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { actorOf } from '../../platform/audit.ts';
import { ADMIN_ONLY } from '../../platform/auth/roles.ts';
import { errorResponses } from '../../platform/errors.ts';
import { Complaint, ComplaintIdParams, ComplaintsQuery, ResolveBody } from '../complaints/complaints.schemas.ts';
import { PageOf } from './admin.schemas.ts';
import type { AdminComplaints } from './complaints.service.ts';

/** The support queue (prefix /admin). */
export async function supportRoutes(fastify: FastifyInstance, { complaints }: { complaints: AdminComplaints }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['admin'];

  app.get('/complaints', {
    config: ADMIN_ONLY,
    schema: {
      tags,
      summary: 'Complaints, newest first, by status (open: the queue)',
      querystring: ComplaintsQuery,
      response: { 200: PageOf(Complaint), ...errorResponses(400, 401, 403) },
    },
  }, async (request) => complaints.list(request.query));

  app.post('/complaints/:complaintId/resolve', {
    config: ADMIN_ONLY,
    schema: {
      tags,
      summary: "Resolve an open complaint: the complainant reads the resolution, the ride's other party is told it was closed",
      params: ComplaintIdParams,
      body: ResolveBody,
      response: { 200: Complaint, ...errorResponses(400, 401, 403, 404, 409) },
    },
  }, async (request) => complaints.resolve(actorOf(request), request.params.complaintId, request.body.resolution));
}
