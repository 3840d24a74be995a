import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { forbidden, unauthorized } from '../errors.ts';
import type { AuthUser, Role } from './roles.ts';
import type { TokenService, VerifiedToken } from './tokens.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Reachable without a bearer token. Every other route requires one. */
    public?: boolean;
    /** A public route that still identifies a caller who sends a token (an invalid one is a 401). */
    identifies?: boolean;
    /** Roles allowed to call the route (403 for the others); any role when absent. */
    roles?: readonly Role[];
  }
  interface FastifyRequest {
    user: AuthUser | null;
    /** When the caller's access token expires (epoch ms), 0 without one: live streams end then. */
    tokenExpiresAt: number;
  }
}

const BEARER = /^Bearer\s+(\S+)$/i;

/**
 * Protects every route registered after it unless the route declares `config: { public: true }`.
 * Routes may narrow access with `config: { roles: [...] }`.
 */
export const authentication = fp<{ tokens: TokenService }>(async (app: FastifyInstance, { tokens }) => {
  app.decorateRequest('user', null);
  app.decorateRequest('tokenExpiresAt', 0);

  app.addHook('onRoute', (route) => {
    if (route.config?.public) {
      if (route.config.identifies) route.onRequest = [...(route.onRequest ? [route.onRequest].flat() : []), identify];
      return;
    }
    const roles = route.config?.roles;
    const admit = (request: FastifyRequest, { id, role, expiresAt }: VerifiedToken) => {
      request.user = { id, role };
      request.tokenExpiresAt = expiresAt;
      if (roles && !roles.includes(role)) throw forbidden(`This action is not available to the ${role} role`);
    };
    // A token seen before is settled synchronously; only a new one waits for the signature check.
    const authenticate: onRequestHookHandler = (request, _reply, done) => {
      const match = BEARER.exec(request.headers.authorization ?? '');
      if (!match) return done(unauthorized('A bearer access token is required', 'MISSING_TOKEN'));
      const known = tokens.knownAccessToken(match[1]);
      if (known) {
        try {
          admit(request, known);
        } catch (error) {
          return done(error as Error);
        }
        return done();
      }
      tokens
        .verify(match[1], 'access')
        .then((verified) => admit(request, verified))
        .then(() => done(), done);
    };
    route.onRequest = [...(route.onRequest ? [route.onRequest].flat() : []), authenticate];
    route.schema = { ...route.schema, security: [{ bearerAuth: [] }] };
  });

  const identify: onRequestHookHandler = (request, _reply, done) => {
    const header = request.headers.authorization;
    if (header === undefined) return done();
    const match = BEARER.exec(header);
    if (!match) return done(unauthorized('The Authorization header must be a bearer access token', 'INVALID_TOKEN'));
    tokens
      .verify(match[1], 'access')
      .then(({ id, role, expiresAt }) => {
        request.user = { id, role };
        request.tokenExpiresAt = expiresAt;
      })
      .then(() => done(), done);
  };
});

/** The caller of a protected route. */
export function authUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw unauthorized('A bearer access token is required', 'MISSING_TOKEN');
  return request.user;
}
