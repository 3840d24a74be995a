import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { actorOf } from '../../platform/audit.ts';
import { ADMIN_ONLY } from '../../platform/auth/roles.ts';
import { errorResponses } from '../../platform/errors.ts';
import { DriverDocument, DriverDocumentParams, DriverDocuments } from '../drivers/documents.schemas.ts';
import type { AdminDocuments } from './driver-documents.service.ts';
import { DriverIdParams, RejectBody } from './operations.schemas.ts';

/** The documents review (prefix /admin): each driver's documents, each file, a decision on each. */
export async function driverDocumentsRoutes(fastify: FastifyInstance, { documents }: { documents: AdminDocuments }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['admin'];

  app.get('/drivers/:driverId/documents', {
    config: ADMIN_ONLY,
    schema: { tags, summary: "A driver's documents, the kinds missing, and whether they clear the driver", params: DriverIdParams, response: { 200: DriverDocuments, ...errorResponses(400, 401, 403) } },
  }, async (request) => documents.list(request.params.driverId));

  app.get('/drivers/:driverId/documents/:kind/file', {
    config: ADMIN_ONLY,
    schema: {
      tags,
      summary: 'The uploaded file itself (PDF, JPEG or PNG), to review',
      params: DriverDocumentParams,
      produces: ['application/pdf', 'image/jpeg', 'image/png'],
      response: { 200: Type.Unknown({ description: 'The file' }), ...errorResponses(400, 401, 403, 404) },
    },
  }, async (request, reply) => {
    const file = await documents.file(request.params.driverId, request.params.kind);
    // A file a driver chose is shown, never run: no sniffing, no scripts, its own origin in a sandbox.
    void reply.type(file.contentType).header('x-content-type-options', 'nosniff').header('content-security-policy', "sandbox; default-src 'none'").header('cache-control', 'no-store');
    return reply.send(file.data);
  });

  app.post('/drivers/:driverId/documents/:kind/approve', {
    config: ADMIN_ONLY,
    schema: { tags, summary: 'Approve a document (audited); the driver is notified', params: DriverDocumentParams, response: { 200: DriverDocument, ...errorResponses(400, 401, 403, 404) } },
  }, async (request) => documents.approve(actorOf(request), request.params.driverId, request.params.kind));

  app.post('/drivers/:driverId/documents/:kind/reject', {
    config: ADMIN_ONLY,
    schema: { tags, summary: 'Reject a document with a reason the driver reads (audited)', params: DriverDocumentParams, body: RejectBody, response: { 200: DriverDocument, ...errorResponses(400, 401, 403, 404) } },
  }, async (request) => documents.reject(actorOf(request), request.params.driverId, request.params.kind, request.body.reason));
}
