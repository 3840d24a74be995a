import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Sends a mail; resolves true when an SMTP server accepted it, false when it only went to the log. */
export interface Mailer {
  send(message: MailMessage): Promise<boolean>;
  close(): void;
}

export function createMailer(smtpUrl: string | undefined, from: string, log: FastifyBaseLogger): Mailer {
  return smtpUrl ? smtpMailer(smtpUrl, from) : logMailer(log);
}

// Without SMTP a newcomer still signs up locally: the mail, code included, is written to the log.
function logMailer(log: FastifyBaseLogger): Mailer {
  return {
    async send(message) {
      log.info({ mail: message }, `SMTP_URL is not set; mail to ${message.to} written to the log instead`);
      return false;
    },
    close() {},
  };
}

function smtpMailer(smtpUrl: string, from: string): Mailer {
  const url = new URL(smtpUrl);
  for (const [key, ms] of [['connectionTimeout', 10_000], ['greetingTimeout', 10_000], ['socketTimeout', 20_000]] as const) {
    if (!url.searchParams.has(key)) url.searchParams.set(key, String(ms));
  }
  const transport = nodemailer.createTransport(url.toString());
  return {
    async send(message) {
      await transport.sendMail({ from, to: message.to, subject: message.subject, text: message.text });
      return true;
    },
    close() {
      transport.close();
    },
  };
}
