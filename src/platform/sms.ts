import type { FastifyBaseLogger } from 'fastify';
import { unavailable } from './errors.ts';

/** Sends a text message; resolves true when the SMS provider took it, false when it only went to the log. */
export interface SmsSender {
  send(to: string, text: string): Promise<boolean>;
}

const TIMEOUT_MS = 5_000;

export function createSmsSender(smsUrl: string | undefined, log: FastifyBaseLogger): SmsSender {
  return smsUrl ? httpSms(smsUrl) : logSms(log);
}

// Without SMS_URL a developer still verifies a phone locally: the message, code included, is in the log.
function logSms(log: FastifyBaseLogger): SmsSender {
  return {
    async send(to, text) {
      log.info({ sms: { to, text } }, `SMS_URL is not set; text message to ${to} written to the log instead`);
      return false;
    },
  };
}

/**
 * The provider's send endpoint as one JSON POST of `{to, text}`; user and password in the URL become
 * basic auth (most SMS gateways take a key that way). Any answer but a 2xx, or none within 5 s, is a 503.
 */
function httpSms(smsUrl: string): SmsSender {
  const url = new URL(smsUrl);
  const credentials = url.username ? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` : undefined;
  url.username = '';
  url.password = '';
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (credentials) headers.authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
  return {
    async send(to, text) {
      let response: Response;
      try {
        response = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ to, text }), signal: AbortSignal.timeout(TIMEOUT_MS) });
      } catch (error) {
        throw unavailable('The SMS provider could not be reached; try again shortly', 'SMS_UNAVAILABLE', error);
      }
      await response.body?.cancel();
      if (!response.ok) throw unavailable('The SMS provider did not take the message; try again shortly', 'SMS_UNAVAILABLE', { status: response.status });
      return true;
    },
  };
}
