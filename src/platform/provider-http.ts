import { unavailable } from './errors.ts';

// How the service posts to the phone providers (SMS, telephony): an address whose user and password
// become basic auth, as most of these gateways take their key, and a 5 s limit, after which, as after
// any answer but a 2xx, the caller hears 503 with the provider's code.

const TIMEOUT_MS = 5_000;

export interface ProviderEndpoint {
  url: URL;
  headers: Record<string, string>;
}

/** The URL without its credentials, and the authorization header they make. */
export function providerEndpoint(raw: string, path = ''): ProviderEndpoint {
  const url = new URL(raw.replace(/\/+$/, '') + path);
  const headers: Record<string, string> = {};
  if (url.username) headers.authorization = `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
  url.username = '';
  url.password = '';
  return { url, headers };
}

/** POSTs the body; a 2xx answer, or a 503 AppError with `code` naming the provider. */
export async function postToProvider(endpoint: ProviderEndpoint, body: { type: string; text: string }, failure: { message: string; code: string }): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(endpoint.url, { method: 'POST', headers: { ...endpoint.headers, 'content-type': body.type }, body: body.text, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    throw unavailable(failure.message, failure.code, error);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw unavailable(failure.message, failure.code, { status: response.status });
  }
  return response;
}
