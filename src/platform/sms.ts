import type { FastifyBaseLogger } from 'fastify';
import { postToProvider, providerEndpoint } from './provider-http.ts';

/** Sends a text message; resolves true when the SMS provider took it, false when it only went to the log. */
export interface SmsSender {
  send(to: string, text: string): Promise<boolean>;
}

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

/** The provider's send endpoint as one JSON POST of `{to, text}`. */
function httpSms(smsUrl: string): SmsSender {
  const endpoint = providerEndpoint(smsUrl);
  const failure = { message: 'The SMS provider did not take the message; try again shortly', code: 'SMS_UNAVAILABLE' };
  return {
    async send(to, text) {
      const response = await postToProvider(endpoint, { type: 'application/json', text: JSON.stringify({ to, text }) }, failure);
      await response.body?.cancel();
      return true;
    },
  };
}
