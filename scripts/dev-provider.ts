import { parseArgs } from 'node:util';
import { CHECKOUT_SCRIPT_PATH } from './provider-checkout.ts';
import { ProviderStandIn } from './provider-stand-in.ts';

// `npm run dev:provider`: the payment provider stand-in for local development (never used unless the
// service is pointed at it). Prints the RAZORPAY_* values to start the service with, its checkout
// script for the apps included.

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: process.env.PORT ?? '9090' },
    host: { type: 'string', default: '127.0.0.1' },
    'webhook-url': { type: 'string', default: process.env.WEBHOOK_URL ?? 'http://127.0.0.1:8080/payments/webhook' },
    'no-webhooks': { type: 'boolean', default: false },
  },
});

const standIn = await new ProviderStandIn({
  keyId: process.env.RAZORPAY_KEY_ID ?? 'rzp_test_standin',
  keySecret: process.env.RAZORPAY_KEY_SECRET ?? 'standin_key_secret',
  webhookSecret: process.env.RAZORPAY_WEBHOOK_SECRET ?? 'standin_webhook_secret',
  webhookUrl: values['no-webhooks'] ? undefined : values['webhook-url'],
}).start(Number(values.port), values.host);

const { keyId, keySecret, webhookSecret, webhookUrl } = standIn.options;
console.log(`Payment provider stand-in listening at ${standIn.url} (no money moves).

Start the service with:
  RAZORPAY_API_URL=${standIn.url} RAZORPAY_KEY_ID=${keyId} RAZORPAY_KEY_SECRET=${keySecret} RAZORPAY_WEBHOOK_SECRET=${webhookSecret} \\
  RAZORPAY_CHECKOUT_URL=${standIn.url}${CHECKOUT_SCRIPT_PATH} npm start

Pay an order:    in the rider app (Pay online opens this stand-in's checkout), or open ${standIn.url}/checkout?order_id=<orderId>,
                 or curl -X POST ${standIn.url}/dev/orders/<orderId>/pay
Fail a payment:  curl -X POST ${standIn.url}/dev/orders/<orderId>/fail
Webhooks go to:  ${webhookUrl ?? 'nowhere (--no-webhooks)'}
`);

const stop = () => void standIn.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
