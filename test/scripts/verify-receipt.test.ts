import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { freshDatabase, smtpSink } from '../helpers/app.ts';
import { tripNorth } from '../helpers/rides.ts';
import { http, serverEnv, signUpOn, startServer, type HttpAccount, type ServerProcess } from '../helpers/server-process.ts';
import type { SmtpSink } from '../helpers/smtp-sink.ts';

// `npm run verify-receipt -- receipt.json` against a real server: it fetches the published key,
// checks the signature and recomputes the fare from the receipt's inputs and pricing version.

const ROOT = join(import.meta.dirname, '../..');

describe('npm run verify-receipt', () => {
  const dir = mkdtempSync(join(tmpdir(), 'verify-receipt-'));
  let server: ServerProcess;
  let database: { url: string; drop(): Promise<void> };
  let smtp: SmtpSink;
  let rider: HttpAccount;
  let receipt: { receipt: Record<string, any>; signature: string };

  const verify = (...args: string[]) => {
    const run = spawnSync(process.execPath, ['scripts/verify-receipt.ts', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
    return { code: run.status, output: `${run.stdout}${run.stderr}` };
  };
  const write = (name: string, value: unknown) => {
    const file = join(dir, name);
    writeFileSync(file, JSON.stringify(value, null, 2));
    return file;
  };

  before(async () => {
    database = await freshDatabase();
    smtp = await smtpSink();
    server = await startServer({ ...serverEnv(database.url, smtp.url), RATE_LIMIT_PER_MINUTE: '0', AUTH_RATE_LIMIT_PER_MINUTE: '0', OTP_RESEND_COOLDOWN_SECONDS: '0' });
    rider = await signUpOn(smtp, server, 'USER');
    const driver = await signUpOn(smtp, server, 'DRIVER');
    const booked = (await http(`${server.url}/rides/book`, 'POST', { rideType: 'mini', ...tripNorth(6) }, rider.token)).body;
    const step = async (body: Record<string, unknown>) => assert.equal((await http(`${server.url}/rides/status/${booked.id}`, 'POST', body, driver.token)).status, 200);
    await step({ status: 'ACCEPTED', driverId: driver.id });
    await step({ status: 'PICKED', otp: booked.startOtp });
    await step({ status: 'COMPLETED', otp: booked.endOtp });
    const reply = await http(`${server.url}/rides/${booked.id}/receipt`, 'GET', undefined, rider.token);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    receipt = reply.body;
  });
  after(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited;
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The pricing version the receipt names, as anyone can read it, saved to a file. */
  const versionFile = async () => write('version.json', (await http(`${server.url}/pricing/versions/${receipt.receipt.pricingVersion}`)).body);

  test('a receipt from the service verifies with its published key and its fare recomputes from its public pricing version: OK, exit 0', async () => {
    const run = verify(write('receipt.json', receipt), '--base', server.url);
    assert.equal(run.code, 0, run.output);
    assert.match(run.output, /signature: OK/);
    assert.match(run.output, new RegExp(`fare: OK \\(ride ${receipt.receipt.rideId}: ${receipt.receipt.fare} INR`));
    assert.match(run.output, /^OK$/m);
  });

  test('a receipt whose fare was changed fails its signature: exit 1', async () => {
    const run = verify(write('changed.json', { ...receipt, receipt: { ...receipt.receipt, fare: receipt.receipt.fare - 1 } }), '--base', server.url);
    assert.equal(run.code, 1, run.output);
    assert.match(run.output, /FAILED: signature: the signature does not match the receipt/);
  });

  test('offline: the key and the pricing version may be given as files instead of fetched', async () => {
    const keys = await http(`${server.url}/.well-known/receipt-keys`);
    const run = verify(write('receipt.json', receipt), '--key', write('keys.json', keys.body), '--rules', await versionFile(), '--base', 'http://127.0.0.1:9');
    assert.equal(run.code, 0, run.output);
  });

  test('a file that is not a receipt is said so: exit 1; no file is a usage error: exit 2', () => {
    const run = verify(write('other.json', { hello: 'world' }), '--base', server.url);
    assert.equal(run.code, 1, run.output);
    assert.match(run.output, /is not a receipt/);
    assert.equal(verify().code, 2);
  });
});
