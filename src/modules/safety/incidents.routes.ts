import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { actorOf } from '../../platform/audit.ts';
import { authUser } from '../../platform/auth/authenticate.ts';
import { ADMIN_ONLY } from '../../platform/auth/roles.ts';
import { errorResponses } from '../../platform/errors.ts';
import { RideIdParams } from '../rides/rides.schemas.ts';
import { Incident, IncidentIdParams, IncidentList, IncidentsQuery, NoteBody, SosBody, SosReceipt } from './incidents.schemas.ts';
import type { Incidents } from './incidents.service.ts';
import { originOf } from './safety.routes.ts';

/** SOS by a ride's rider or driver (/rides), and the operators' incident desk (/admin). */
export async function incidentRoutes(fastify: FastifyInstance, { incidents }: { incidents: Incidents }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['safety'];
  // The operators' desk is documented with the rest of the operator API.
  const adminTags = ['admin'];

  app.post('/rides/:rideId/sos', {
    schema: {
      tags,
      summary: "SOS: operators are alerted at once, and your emergency contact is sent the trip's live link",
      params: RideIdParams,
      body: SosBody,
      response: { 200: SosReceipt, ...errorResponses(400, 401, 403, 404, 409) },
    },
  }, async (request) => incidents.report(authUser(request), request.params.rideId, request.body ?? {}, originOf(request)));

  app.get('/admin/incidents', {
    config: ADMIN_ONLY,
    schema: {
      tags: adminTags,
      summary: 'Incidents, open first, then acknowledged, then resolved (newest first in each): the ride, both parties, the track since the SOS, the notes',
      querystring: IncidentsQuery,
      response: { 200: IncidentList, ...errorResponses(400, 401, 403) },
    },
  }, async (request) => incidents.list(request.query));

  app.get('/admin/incidents/:incidentId', {
    config: ADMIN_ONLY,
    schema: { tags: adminTags, summary: 'One incident', params: IncidentIdParams, response: { 200: Incident, ...errorResponses(400, 401, 403, 404) } },
  }, async (request) => incidents.get(request.params.incidentId));

  app.post('/admin/incidents/:incidentId/ack', {
    config: ADMIN_ONLY,
    schema: { tags: adminTags, summary: 'Acknowledge an open incident: every console stops alarming (audited)', params: IncidentIdParams, response: { 200: Incident, ...errorResponses(400, 401, 403, 404, 409) } },
  }, async (request) => incidents.acknowledge(actorOf(request), request.params.incidentId));

  app.post('/admin/incidents/:incidentId/note', {
    config: ADMIN_ONLY,
    schema: { tags: adminTags, summary: 'Add a note to an incident (audited)', params: IncidentIdParams, body: NoteBody, response: { 200: Incident, ...errorResponses(400, 401, 403, 404) } },
  }, async (request) => incidents.note(actorOf(request), request.params.incidentId, request.body.text));

  app.post('/admin/incidents/:incidentId/resolve', {
    config: ADMIN_ONLY,
    schema: { tags: adminTags, summary: 'Resolve an incident (audited); an unacknowledged one counts as acknowledged now', params: IncidentIdParams, response: { 200: Incident, ...errorResponses(400, 401, 403, 404, 409) } },
  }, async (request) => incidents.resolve(actorOf(request), request.params.incidentId));
}
