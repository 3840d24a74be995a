import assert from 'node:assert/strict';
import { test } from 'node:test';
import { routes } from '../../../src/contract/routes.ts';
import { apiOf, asReply } from '../../helpers/api.ts';
import { createTestApp } from '../../helpers/app.ts';
import { driverAt, eventually, near, PICKUP } from '../../helpers/dispatch.ts';
import { signUp } from '../../helpers/factories.ts';
import { LocalPushService, testPushConfig } from '../../helpers/push-service.ts';
import { assertOk, bookRide } from '../../helpers/rides.ts';

// An instance stopping (a deploy's drain) lets the push messages it still holds go before it ends:
// here an offer whose first attempt met a busy push service, due again 2 s later.

const push = testPushConfig;

test('a push message waiting for its second attempt is still sent when the instance stops', async () => {
  const service = await new LocalPushService().start();
  const t = await createTestApp({ push, dispatch: { mode: 'nearest', batchMs: 60, offerTtlMs: 15_000, maxMs: 120_000 } });
  let closed = false;
  try {
    const driver = await driverAt(t, near(PICKUP, 0.4));
    const browser = service.subscribe();
    assertOk(asReply(await apiOf(t, driver).send(routes.push.subscribe, { body: browser })), 'subscribe');
    service.answerNext(browser.endpoint, 503);
    await bookRide(t, await signUp(t), { pickupLat: PICKUP.lat, pickupLon: PICKUP.lon, dropLat: PICKUP.lat + 0.05, dropLon: PICKUP.lon });
    await eventually(async () => (service.to(browser.endpoint).length === 1 ? true : undefined), 'the first attempt, answered 503');

    await t.close();
    closed = true;

    assert.deepEqual(service.to(browser.endpoint).map((message) => [message.payload.kind, message.status]), [['offer', 503], ['offer', 201]], 'the second attempt went before the instance ended');
    assert.deepEqual(service.refused, []);
  } finally {
    if (!closed) await t.close();
    await service.close();
  }
});
