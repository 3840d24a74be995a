import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';
import packageJson from '../../package.json' with { type: 'json' };
import { ErrorResponse } from './errors.ts';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

type JsonSchema = Record<string, unknown>;
type OpenApiDocument = { paths?: Record<string, Record<string, { operationId?: string }>> } & Record<string, unknown>;

/**
 * The OpenAPI document is generated from the route schemas: `/openapi.json`, browsable at `/docs`.
 * What a route schema cannot say by itself is added here, for every route including later ones:
 * an operationId from method and path, `security: []` on public routes, response headers in
 * OpenAPI's shape, the uniform error body where a route lists no 4xx answer, license and servers.
 * Only the document changes; the schemas Fastify validates and serializes with stay as written.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Ride-hailing API',
        // The one version of the service: /docs, the start-up banner and package.json agree.
        version: packageJson.version,
        description: 'Accounts, rides, live driver positions, payments, settings, notifications and demand insights.',
        license: { name: packageJson.license, identifier: packageJson.license },
      },
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    transform: ({ schema, url, route }) => ({ schema: documentedSchema(schema, route), url }),
    transformObject: (document) => completeDocument(('openapiObject' in document ? document.openapiObject : {}) as OpenApiDocument),
  });
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: DOCS_POLICY });
  app.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());
}

/**
 * /docs shares its origin with the apps, whose pages hold users' tokens: it runs only its own
 * scripts (Swagger UI's page has no inline script) and no page may frame it. Swagger UI adds a
 * <style> element of its own, hence 'unsafe-inline' for styles only. No upgrade-insecure-requests:
 * the service also runs on plain HTTP, behind a proxy or on a developer's machine.
 */
const DOCS_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** `get /rides/status/{rideId}` → `getRidesStatusByRideId`: stable as long as the route is. */
export function operationId(method: string, path: string): string {
  const words = path
    .split('/')
    .filter(Boolean)
    .map((segment) => {
      const parameter = /^[{:](\w+)}?$/.exec(segment);
      return parameter ? `By-${parameter[1]}` : segment;
    })
    .flatMap((segment) => segment.split(/[^A-Za-z0-9]+/).filter(Boolean));
  return method.toLowerCase() + words.map((word) => word[0].toUpperCase() + word.slice(1)).join('');
}

function documentedSchema(schema: FastifySchema | undefined, route: RouteOptions): FastifySchema {
  const documented: FastifySchema = { ...schema };
  // The authentication plugin marks protected routes; a public one says so explicitly.
  if (route.config?.public) documented.security = [];
  const responses = (schema?.response ?? {}) as Record<string, JsonSchema>;
  const entries = Object.entries(responses).map(([status, response]) => [status, withHeaderMap(response)] as const);
  // Any request can be refused before its handler runs (a malformed URL, an over-long path segment),
  // always in the uniform error body.
  if (!entries.some(([status]) => status.startsWith('4'))) entries.push(['4xx', ErrorResponse as unknown as JsonSchema]);
  documented.response = Object.fromEntries(entries);
  return documented;
}

// Routes may describe their response headers as one object schema (`{ type: 'object', properties }`),
// which reads well next to the body schema; @fastify/swagger expects a map of header name to schema.
function withHeaderMap(response: JsonSchema): JsonSchema {
  const headers = response.headers as JsonSchema | undefined;
  if (!headers || headers.type !== 'object' || typeof headers.properties !== 'object') return response;
  return { ...response, headers: { ...(headers.properties as Record<string, JsonSchema>) } };
}

function completeDocument(document: OpenApiDocument): OpenApiDocument {
  const seen = new Map<string, string>();
  for (const [path, operations] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(operations)) {
      if (!METHODS.includes(method)) continue;
      operation.operationId ??= operationId(method, path);
      const other = seen.get(operation.operationId);
      if (other) throw new Error(`operationId ${operation.operationId} of ${method} ${path} is already used by ${other}`);
      seen.set(operation.operationId, `${method} ${path}`);
    }
  }
  // Relative to where the document is served: the API answers on the same origin as /openapi.json.
  return { ...document, servers: [{ url: '/', description: 'This service' }] };
}
