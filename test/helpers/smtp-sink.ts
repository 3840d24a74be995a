import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface SentMail {
  to: string[];
  raw: string;
}

/** A real SMTP server on a random local port that keeps every mail it receives. */
export class SmtpSink {
  readonly mails: SentMail[] = [];
  readonly #server: SMTPServer;
  readonly #waiters: Array<() => void> = [];
  url = '';

  constructor() {
    this.#server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          this.mails.push({ to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()), raw: Buffer.concat(chunks).toString('utf8') });
          this.#waiters.splice(0).forEach((wake) => wake());
          callback();
        });
      },
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.#server.server.unref();
    this.url = `smtp://127.0.0.1:${(this.#server.server.address() as AddressInfo).port}`;
    return this;
  }

  /** The newest 6-digit code mailed to the address, waiting up to 5 s for it to arrive. */
  async otpFor(email: string, after = 0): Promise<string> {
    const deadline = Date.now() + 5000;
    for (;;) {
      const mail = this.mails.slice(after).reverse().find((m) => m.to.includes(email.trim().toLowerCase()));
      // In whichever language the mail is (a browser's Accept-Language chooses): the one 6-digit number in it.
      const code = mail && /(?<!\d)\d{6}(?!\d)/.exec(readMail(mail.raw).text)?.[0];
      if (code) return code;
      if (Date.now() > deadline) throw new Error(`no sign-up code mailed to ${email}`);
      await new Promise<void>((resolve) => {
        this.#waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
  }

  /** The newest mail to the address, once it has arrived (waiting up to 5 s), as its reader sees it. */
  async lastTo(email: string, after = 0): Promise<{ subject: string; text: string }> {
    const deadline = Date.now() + 5000;
    for (;;) {
      const mail = this.mails.slice(after).reverse().find((m) => m.to.includes(email.trim().toLowerCase()));
      if (mail) return readMail(mail.raw);
      if (Date.now() > deadline) throw new Error(`no mail to ${email}`);
      await new Promise<void>((resolve) => {
        this.#waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
}

const quotedPrintable = (text: string): Buffer =>
  Buffer.from(text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1');

/** A one-part text mail decoded as nodemailer encodes it: RFC 2047 words in the subject, a base64 or quoted-printable body. */
export function readMail(raw: string): { subject: string; text: string } {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = raw.slice(split + 4);
  const header = (name: string) => new RegExp(`^${name}:[ \t]*(.*)$`, 'im').exec(head)?.[1] ?? '';
  // Adjacent encoded words are one run of bytes: a character may be split between two of them.
  const subject = header('Subject').replace(/(?:=\?utf-8\?[bq]\?[^?]*\?=\s*)+/gi, (run) =>
    Buffer.concat(
      [...run.matchAll(/=\?utf-8\?([bq])\?([^?]*)\?=/gi)].map(([, kind, data]) => (kind.toLowerCase() === 'b' ? Buffer.from(data, 'base64') : quotedPrintable(data.replace(/_/g, ' ')))),
    ).toString('utf8'),
  );
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  const bytes = encoding === 'base64' ? Buffer.from(body.replace(/\s+/g, ''), 'base64') : encoding === 'quoted-printable' ? quotedPrintable(body) : Buffer.from(body, 'utf8');
  return { subject: subject.trim(), text: bytes.toString('utf8').replace(/\r\n/g, '\n').trimEnd() };
}
