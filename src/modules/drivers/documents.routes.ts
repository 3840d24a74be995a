import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { authUser } from '../../platform/auth/authenticate.ts';
import { errorResponses } from '../../platform/errors.ts';
import type { DriverDocuments } from './driver-documents.service.ts';
import { DocumentKindParams, DriverDocument, DriverDocuments as DocumentList, UploadDocumentBody } from './documents.schemas.ts';

/** A 5 MB file in base64 and its fields: more than the service's usual body limit. */
const UPLOAD_BODY_LIMIT = 7 * 1024 * 1024 + 4096;

/** A driver's own documents (prefix /drivers/me): upload each kind, see where each stands. */
export async function documentsRoutes(fastify: FastifyInstance, { documents }: { documents: DriverDocuments }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['drivers'];
  const config = { roles: ['DRIVER'] as const };

  app.get('/documents', {
    config,
    schema: { tags, summary: 'Your documents, the kinds still missing, and whether they clear you for rides', response: { 200: DocumentList, ...errorResponses(401, 403) } },
  }, async (request) => documents.of(authUser(request).id));

  app.put('/documents/:kind', {
    config,
    bodyLimit: UPLOAD_BODY_LIMIT,
    schema: {
      tags,
      summary: 'Upload a licence, registration, insurance or permit (PDF, JPEG or PNG, at most 5 MB, in base64) with its expiry; it replaces the last one and waits for an operator',
      params: DocumentKindParams,
      body: UploadDocumentBody,
      response: { 200: DriverDocument, ...errorResponses(400, 401, 403, 413) },
    },
  }, async (request) => documents.upload(authUser(request).id, request.params.kind, request.body));
}
