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
      const code = mail && /code is (\d{6})/.exec(mail.raw.replace(/=\r?\n/g, ''))?.[1];
      if (code) return code;
      if (Date.now() > deadline) throw new Error(`no sign-up code mailed to ${email}`);
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
