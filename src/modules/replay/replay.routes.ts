import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ADMIN_ONLY } from '../../platform/auth/roles.ts';
import { errorResponses } from '../../platform/errors.ts';
import type { BehaviourFits } from './behaviour.service.ts';
import { BehaviourFit, BehaviourQuery, SupplyHistory, SupplyQuery } from './replay.schemas.ts';
import type { SupplySampler } from './supply-sampler.ts';
import { WhatIfBody, WhatIfJob, WhatIfParams } from './what-if.schemas.ts';
import type { WhatIf } from './what-if.service.ts';

/** What replays are made of (prefix /admin). */
export async function replayRoutes(fastify: FastifyInstance, { supply, behaviour, whatIf }: { supply: SupplySampler; behaviour: BehaviourFits; whatIf: WhatIf }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get('/supply', {
    config: ADMIN_ONLY,
    schema: {
      tags: ['admin'],
      summary: 'Driver supply as sampled for what-if replays: online and busy drivers every 30 seconds of the period',
      querystring: SupplyQuery,
      response: { 200: SupplyHistory, ...errorResponses(400, 401, 403) },
    },
  }, async (request) => supply.history(request.query));

  app.get('/behaviour', {
    config: ADMIN_ONLY,
    schema: {
      tags: ['admin'],
      summary: "Drivers' acceptance of offers by pickup distance and fare, and riders' cancelling while they wait, fitted from a period, each beside what was observed",
      querystring: BehaviourQuery,
      response: { 200: BehaviourFit, ...errorResponses(400, 401, 403) },
    },
  }, async (request) => behaviour.fit(request.query));

  app.post('/what-if', {
    config: ADMIN_ONLY,
    schema: {
      tags: ['admin'],
      summary: 'Replays a period (at most 8 days) as it ran and with a candidate pricing document and/or dispatch settings, in the background; one at a time',
      body: WhatIfBody,
      response: { 202: WhatIfJob, ...errorResponses(400, 401, 403, 409) },
    },
  }, async (request, reply) => reply.code(202).send(await whatIf.start(request.body)));
  app.get('/what-if/:id', {
    config: ADMIN_ONLY,
    schema: {
      tags: ['admin'],
      summary: "A what-if replay's progress, then the actual, replayed-as-was and candidate figures side by side, in all and hour by hour",
      params: WhatIfParams,
      response: { 200: WhatIfJob, ...errorResponses(400, 401, 403, 404) },
    },
  }, async (request) => whatIf.get(request.params.id));
}
