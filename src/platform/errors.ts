import { STATUS_CODES } from 'node:http';
import { Type } from 'typebox';

/** The one error type the service throws on purpose: an HTTP status, a machine code and a message. */
export class AppError extends Error {
  readonly statusCode: number;
  readonly code: string;
  readonly retryAfterSeconds: number | undefined;

  constructor(statusCode: number, code: string, message: string, options?: { retryAfterSeconds?: number; cause?: unknown }) {
    super(message, { cause: options?.cause });
    this.name = 'AppError';
    this.statusCode = statusCode;
    this.code = code;
    this.retryAfterSeconds = options?.retryAfterSeconds;
  }
}

export const badRequest = (message: string, code = 'VALIDATION_FAILED') => new AppError(400, code, message);
export const unauthorized = (message: string, code = 'UNAUTHORIZED') => new AppError(401, code, message);
export const forbidden = (message: string, code = 'FORBIDDEN') => new AppError(403, code, message);
export const notFound = (message: string, code = 'NOT_FOUND') => new AppError(404, code, message);
export const conflict = (message: string, code = 'CONFLICT') => new AppError(409, code, message);
export const tooManyRequests = (message: string, retryAfterSeconds: number, code = 'RATE_LIMITED') =>
  new AppError(429, code, message, { retryAfterSeconds: Math.max(1, Math.ceil(retryAfterSeconds)) });
export const unavailable = (message: string, code = 'SERVICE_UNAVAILABLE', cause?: unknown) =>
  new AppError(503, code, message, { cause });

export interface ErrorBody {
  statusCode: number;
  error: string;
  code: string;
  message: string;
}

export function errorBody(statusCode: number, code: string, message: string): ErrorBody {
  return { statusCode, error: STATUS_CODES[statusCode] ?? 'Error', code, message };
}

export const ErrorResponse = Type.Object(
  { statusCode: Type.Integer(), error: Type.String(), code: Type.String(), message: Type.String() },
  { description: 'Error' },
);

/** Response schemas for the error statuses a route can answer, for the OpenAPI document. */
export function errorResponses(...statuses: number[]): Record<number, typeof ErrorResponse> {
  return Object.fromEntries(statuses.map((status) => [status, ErrorResponse]));
}
