import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import type { PhoneStandIn } from '../../scripts/phone-stand-in.ts';
import { missingTools, shellBlocks } from '../helpers/doc-blocks.ts';
import { startPhoneProvider } from '../helpers/phone-provider.ts';
import type { TestApp } from '../helpers/app.ts';
import { signUp, type TestUser } from '../helpers/factories.ts';
import { acceptedRide } from '../helpers/rides.ts';
import { operatorApp } from '../modules/admin/operator.ts';

// docs/safety.md is copy-paste documentation: this runs its shell blocks, in order, against a test
// app on a real port (in whichever mode the environment selects), with the ride under way the page
// assumes, so the page breaks the build the day it stops being true.

const PAGE = join(import.meta.dirname, '../../docs/safety.md');
const missing = missingTools(['bash', 'curl', 'jq']);

describe('docs/safety.md', { skip: missing.length > 0 ? `needs ${missing.join(', ')}` : false }, () => {
  let t: TestApp;
  let admin: TestUser;
  let base: string;
  let sms: PhoneStandIn;
  before(async () => {
    sms = await startPhoneProvider();
    ({ t, admin } = await operatorApp({ smsUrl: sms.smsUrl, telephony: { url: sms.telephonyUrl, callerId: '+918047000000' } }));
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await t.close();
    await sms.close();
  });

  test('every command of the page runs, and each answers as the page says', async () => {
    const rider = await signUp(t);
    const driver = await signUp(t, { role: 'DRIVER' });
    const { booked } = await acceptedRide(t, rider, driver);
    const blocks = shellBlocks(PAGE);
    assert.match(blocks[0], /^BASE=http:\/\/localhost:8080\n/);
    const script = `set -euo pipefail\nRIDER=${rider.token}\nDRIVER=${driver.token}\nRIDE=${booked.id}\nOPS=${admin.token}\nSMS=${sms.url}\n${blocks.join('\n').replace('BASE=http://localhost:8080', `BASE=${base}`)}`;
    // Not execFileSync: the service answering the script runs in this process.
    // In a folder of its own: the page writes the files it uploads and downloads.
    const cwd = mkdtempSync(join(tmpdir(), 'safety-guide-'));
    const { stdout: output } = await promisify(execFile)('bash', ['-c', script], { encoding: 'utf8', timeout: 30_000, cwd }).finally(() => rmSync(cwd, { recursive: true, force: true }));
    assert.match(output, /^\["expiresAt","url"\]$/m, output);
    assert.match(output, /^\["driverFirstName","etaMinutes","position","status","vehicleModel","vehicleNumber"\]$/m, output);
    assert.match(output, /^\{"message":"Sharing of ride \d+ ended"\}$/m, output);
    assert.match(output, /^after revoking: 404$/m, output);
    assert.match(output, /^\{"id":\d+,"status":"open","party":"rider","notes":\["The driver left the route"\]\}$/m, output);
    assert.match(output, /^\{"status":"acknowledged"\}$/m, output);
    assert.match(output, /^\["The driver left the route","Called the rider: safe, a detour"\]$/m, output);
    assert.match(output, /^\{"status":"resolved"\}$/m, output);
    assert.match(output, /^\["acknowledged","acknowledgedToday","meanAcknowledgeSeconds","open"\]$/m, output);
    assert.match(output, /^\{"smsSent":true\}$/m, output);
    assert.match(output, /^\{"phone":"\+919845012345","pendingPhone":null\}$/m, output);
    assert.match(output, /^\["callId","message"\]$/m, output);
    assert.match(output, /^\{"kind":"licence","status":"pending","valid":false\}$/m, output);
    assert.match(output, /^\{"missing":\["registration","insurance","permit"\],"cleared":false\}$/m, output);
    assert.match(output, /^\[\{"kind":"licence","status":"pending"\}\]$/m, output);
    assert.match(output, /^application\/pdf$/m, output);
    assert.match(output, /^\{"status":"rejected","reason":"The scan is cut off"\}$/m, output);
    assert.match(output, /^\{"status":"approved","valid":true\}$/m, output);
    assert.match(output, /^\{"from":"\+919845012345","to":"\+919845067890","callerId":"\+918047000000"\}$/m, output);
  });
});
