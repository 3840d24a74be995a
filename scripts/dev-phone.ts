import { parseArgs } from 'node:util';
import { PhoneStandIn } from './phone-stand-in.ts';

// `npm run dev:phone`: the SMS and telephony provider stand-in for local development (never used unless
// the service is pointed at it). Prints each text message it takes, codes included, each call it is
// asked to bridge, and the command that starts the service pointed at it.

const USAGE = `Usage: npm run dev:phone -- [--port N] [--host ADDRESS]   the SMS and telephony provider stand-in (default 127.0.0.1:9091)`;

const { values } = parseArgs({
  options: { port: { type: 'string', default: process.env.PHONE_PROVIDER_PORT ?? '9091' }, host: { type: 'string', default: '127.0.0.1' }, help: { type: 'boolean', short: 'h', default: false } },
});
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port ${values.port} is not a port\n\n${USAGE}`);
  process.exit(2);
}

/** The virtual number (an ExoPhone) calls show; any number works with the stand-in. */
const VIRTUAL_NUMBER = '+918047000000';

const standIn = await new PhoneStandIn().start(port, values.host);
standIn.onMessage = (sms) => console.log(`SMS to ${sms.to}: ${sms.text}`);
standIn.onCall = (call) => console.log(`Call ${call.sid}: ringing ${call.from}, then ${call.to}, both shown ${call.callerId}`);
console.log(`Phone provider stand-in listening at ${standIn.url} (nothing reaches a phone; messages are printed here,
and listed newest first at ${standIn.url}/dev/messages?to=<number> and ${standIn.url}/dev/calls).

Start the service pointed at it, in another terminal:

SMS_URL=${standIn.smsUrl} TELEPHONY_URL=${standIn.telephonyUrl} TELEPHONY_CALLER_ID=${VIRTUAL_NUMBER} npm start
`);
const stop = () => void standIn.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
