import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { CHECKOUT_SCRIPT_PATH } from './provider-checkout.ts';
import { ProviderStandIn } from './provider-stand-in.ts';

// `npm run dev:provider`: the payment provider stand-in for local development (never used unless the
// service is pointed at it). Prints the exact command that starts the service pointed at it, its
// checkout script and webhooks included. `npm run dev` (`--start`) starts that service itself: a
// complete local stack with online payments in one command.

const USAGE = `Usage: npm run dev:provider -- [options]   the payment provider stand-in; prints the command that starts the service
       npm run dev -- [options]            the stand-in and the service (npm start) pointed at it, in one terminal

Options:
  --port N            the stand-in's port (default: PROVIDER_PORT, else 9090)
  --host ADDRESS      the stand-in's address (default 127.0.0.1)
  --service-url URL   the service's address (default http://127.0.0.1:<PORT, else 8080>); webhooks go to URL/payments/webhook
  --webhook-url URL   send webhooks to this URL instead
  --no-webhooks       send no webhooks
  --start             also start the service with the stand-in's values (what npm run dev does)
  -h, --help          show this text`;

function options() {
  try {
    return parseArgs({
      options: {
        port: { type: 'string', default: process.env.PROVIDER_PORT ?? '9090' },
        host: { type: 'string', default: '127.0.0.1' },
        'service-url': { type: 'string', default: `http://127.0.0.1:${process.env.PORT ?? '8080'}` },
        'webhook-url': { type: 'string' },
        'no-webhooks': { type: 'boolean', default: false },
        start: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }).values;
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
}

const values = options();
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const port = Number(values.port);
const service = URL.canParse(values['service-url']) ? new URL(values['service-url']) : undefined;
if (!Number.isInteger(port) || port < 0 || port > 65535 || !service || !/^https?:$/.test(service.protocol)) {
  console.error(`${!service ? `--service-url ${values['service-url']} is not an http(s) URL` : `--port ${values.port} is not a port`}\n\n${USAGE}`);
  process.exit(2);
}
const servicePort = service.port || (service.protocol === 'https:' ? '443' : '80');

const standIn = await new ProviderStandIn({
  keyId: process.env.RAZORPAY_KEY_ID ?? 'rzp_test_standin',
  keySecret: process.env.RAZORPAY_KEY_SECRET ?? 'standin_key_secret',
  webhookSecret: process.env.RAZORPAY_WEBHOOK_SECRET ?? 'standin_webhook_secret',
  webhookUrl: values['no-webhooks'] ? undefined : (values['webhook-url'] ?? new URL('/payments/webhook', service).toString()),
}).start(port, values.host);

const { keyId, keySecret, webhookSecret, webhookUrl } = standIn.options;
const serviceEnv: Record<string, string> = {
  RAZORPAY_API_URL: standIn.url,
  RAZORPAY_KEY_ID: keyId,
  RAZORPAY_KEY_SECRET: keySecret,
  RAZORPAY_WEBHOOK_SECRET: webhookSecret,
  RAZORPAY_CHECKOUT_URL: `${standIn.url}${CHECKOUT_SCRIPT_PATH}`,
  // The service listens where the webhooks are sent.
  ...(servicePort === '8080' ? {} : { PORT: servicePort }),
};
const command = `${Object.entries(serviceEnv).map(([name, value]) => `${name}=${value}`).join(' ')} npm start`;

console.log(`Payment provider stand-in listening at ${standIn.url} (no money moves).
Webhooks go to:  ${webhookUrl ?? 'nowhere (--no-webhooks)'}
Pay an order:    in the rider app (Pay online opens this stand-in's checkout), or open ${standIn.url}/checkout?order_id=<orderId>,
                 or curl -X POST ${standIn.url}/dev/orders/<orderId>/pay
Fail a payment:  curl -X POST ${standIn.url}/dev/orders/<orderId>/fail
`);

if (!values.start) {
  console.log(`Start the service pointed at it, in another terminal:\n\n${command}\n`);
  const stop = () => void standIn.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} else {
  console.log('Starting the service (npm start) with RAZORPAY_* pointed at the stand-in; its log follows.\n');
  // Exactly as `npm start` runs it (its Node flags included), with the stand-in's values added.
  const [, ...args] = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { scripts: { start: string } }).scripts.start.split(/\s+/);
  const server = spawn(process.execPath, args, { env: { ...process.env, ...serviceEnv }, stdio: 'inherit' });
  // Ctrl-C reaches both processes (one terminal, one process group); a SIGTERM to this one is passed on.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.kill(signal));
  server.once('exit', (code, signal) => void standIn.close().then(() => process.exit(code ?? (signal ? 1 : 0))));
}
