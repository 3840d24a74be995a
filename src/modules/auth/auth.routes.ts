import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../platform/errors.ts';
import { languageOfHeader } from '../../platform/i18n/texts.ts';
import { MessageResponse } from '../../platform/schemas.ts';
import { LoginBody, RefreshBody, RequestOtpBody, RequestOtpResponse, SignupBody, TokenResponse } from './auth.schemas.ts';
import type { AuthService } from './auth.service.ts';

export async function authRoutes(fastify: FastifyInstance, { service }: { service: AuthService }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['auth'];
  const config = { public: true };

  app.post('/signup/request-otp', {
    config,
    schema: {
      tags,
      summary: 'E-mail a 6-digit sign-up code (valid 10 minutes)',
      body: RequestOtpBody,
      response: { 200: RequestOtpResponse, ...errorResponses(400, 429, 503) },
    },
  }, async (request) => service.requestSignupOtp(request.body.name, request.body.email, languageOfHeader(request.headers['accept-language'])));

  app.post('/signup', {
    config,
    schema: {
      tags,
      summary: 'Create the account, or update an existing one, with the e-mailed code',
      body: SignupBody,
      response: { 200: MessageResponse, ...errorResponses(400, 403, 429) },
    },
  }, async (request) => service.signup(request.body));

  app.post('/login', {
    config,
    schema: { tags, summary: 'Log in with e-mail and password', body: LoginBody, response: { 200: TokenResponse, ...errorResponses(400, 401, 429) } },
  }, async (request) => service.login(request.body));

  app.post('/refresh', {
    config,
    schema: {
      tags,
      summary: 'Trade a refresh token for new tokens; the old one stops working',
      body: RefreshBody,
      response: { 200: TokenResponse, ...errorResponses(400, 401, 429) },
    },
  }, async (request) => service.refresh(request.body.refreshToken));

  app.post('/logout', {
    config,
    schema: {
      tags,
      summary: 'Revoke the session of a refresh token',
      body: RefreshBody,
      response: { 200: MessageResponse, ...errorResponses(400, 401, 429) },
    },
  }, async (request) => service.logout(request.body.refreshToken));
}
