import { postToProvider, providerEndpoint } from './provider-http.ts';

/** Two numbers to bridge: the provider rings `from` first, then `to`, and both see `callerId` (the service's virtual number). */
export interface CallRequest {
  from: string;
  to: string;
}

/** Bridges two phones without either seeing the other's number; resolves the provider's id of the call. */
export interface Telephony {
  connect(call: CallRequest): Promise<{ callId: string }>;
}

/**
 * Exotel's connect-two-numbers API: `POST {TELEPHONY_URL}/Calls/connect.json`, form fields From, To and
 * CallerId (the virtual number, an ExoPhone), where TELEPHONY_URL is the account's API base with its key
 * and token as user and password (`https://key:token@api.exotel.com/v1/Accounts/<sid>`). The numbers
 * it answers back are never passed on: only the call's Sid.
 */
export function exotelTelephony(telephonyUrl: string, callerId: string): Telephony {
  const endpoint = providerEndpoint(telephonyUrl, '/Calls/connect.json');
  const failure = { message: 'The call could not be connected; try again shortly', code: 'TELEPHONY_UNAVAILABLE' };
  return {
    async connect({ from, to }) {
      const form = new URLSearchParams({ From: from, To: to, CallerId: callerId });
      const response = await postToProvider(endpoint, { type: 'application/x-www-form-urlencoded', text: form.toString() }, failure);
      const body = (await response.json().catch(() => undefined)) as { Call?: { Sid?: unknown } } | undefined;
      return { callId: typeof body?.Call?.Sid === 'string' ? body.Call.Sid : 'unknown' };
    },
  };
}
