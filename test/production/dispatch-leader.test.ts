import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { freshDatabase, smtpSink } from '../helpers/app.ts';
import { uniqueEmail } from '../helpers/factories.ts';
import { POSTGRES_URL, privateRedisDatabase, productionServicesMissing } from '../helpers/production.ts';
import { http, startServer, type ServerProcess } from '../helpers/server-process.ts';
import type { SmtpSink } from '../helpers/smtp-sink.ts';

// decisions.md "Dispatch" and issue 15: exactly one dispatcher leads across instances, through a
// Redis lease; when its instance dies, another takes over within seconds and no ride is left unoffered.

const missing = await productionServicesMissing();
const PICKUP = { lat: 12.9716, lon: 77.5946 };

describe('the dispatch leader', { skip: missing }, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let smtp: SmtpSink;
  let servers: ServerProcess[];

  before(async () => {
    database = await freshDatabase(POSTGRES_URL);
    smtp = await smtpSink();
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: await privateRedisDatabase(12),
      JWT_SECRET: 'a-shared-secret-of-at-least-thirty-two-bytes',
      SMTP_URL: smtp.url,
      RATE_LIMIT_PER_MINUTE: '0',
      AUTH_RATE_LIMIT_PER_MINUTE: '0',
      OTP_RESEND_COOLDOWN_SECONDS: '0',
      DISPATCH_MODE: 'batched',
      DISPATCH_BATCH_MS: '200',
    };
    servers = await Promise.all([startServer(env), startServer(env)]);
  });

  after(async () => {
    for (const server of servers) {
      if (server.child.exitCode === null) {
        server.child.kill('SIGTERM');
        await server.exited;
      }
    }
    await database.drop();
  });

  const account = async (url: string, role: 'RIDER' | 'DRIVER') => {
    const email = uniqueEmail(role.toLowerCase());
    const mailsBefore = smtp.mails.length;
    assert.equal((await http(`${url}/auth/signup/request-otp`, 'POST', { name: role, email })).status, 200);
    const otp = await smtp.otpFor(email, mailsBefore);
    assert.equal((await http(`${url}/auth/signup`, 'POST', { name: role, email, password: 'password-123', otp, role })).status, 200);
    const login = await http(`${url}/auth/login`, 'POST', { email, password: 'password-123', role });
    return { id: login.body.id as number, token: login.body.accessToken as string };
  };

  const onlineDriver = async (url: string, km: number) => {
    const driver = await account(url, 'DRIVER');
    assert.equal((await http(`${url}/drivers/me/profile`, 'PUT', { vehicleType: 'mini', vehicleNumber: `KA05X${driver.id}` }, driver.token)).status, 200);
    assert.equal((await http(`${url}/drivers/me/location`, 'PUT', { lat: PICKUP.lat + km / 111.2, lon: PICKUP.lon }, driver.token)).status, 200);
    return driver;
  };

  const offerFor = async (url: string, driver: { token: string }, rideId: number, timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const offers = await http(`${url}/drivers/me/offers`, 'GET', undefined, driver.token);
      const offer = (offers.body as Array<{ rideId: number }>).find((o) => o.rideId === rideId);
      if (offer) return offer;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.fail(`no offer of ride ${rideId} within ${timeoutMs} ms`);
  };

  const leaderIndex = () => {
    const leading = servers.map((server) => server.output().lastIndexOf('"leading":true') > server.output().lastIndexOf('"leading":false'));
    assert.equal(leading.filter(Boolean).length, 1, `exactly one leader: ${leading.join(',')}`);
    return leading.indexOf(true);
  };

  test('one instance leads; when it is killed the other takes over and every open ride is offered', async () => {
    const [a, b] = servers.map((server) => server.url);
    const rider = await account(a, 'RIDER');
    const first = await onlineDriver(b, 0.5);
    const booked = await http(`${a}/rides/book`, 'POST', { pickupLat: PICKUP.lat, pickupLon: PICKUP.lon, dropLat: PICKUP.lat + 0.05, dropLon: PICKUP.lon }, rider.token);
    assert.equal(booked.status, 200);
    await offerFor(b, first, booked.body.id, 5_000);

    const leader = leaderIndex();
    const survivor = servers[1 - leader];
    servers[leader].child.kill('SIGKILL');
    await servers[leader].exited;

    // Booked while nobody leads: offered once the lease (5 s) has passed to the survivor.
    const second = await onlineDriver(survivor.url, 0.7);
    const other = await account(survivor.url, 'RIDER');
    const waiting = await http(`${survivor.url}/rides/book`, 'POST', { pickupLat: PICKUP.lat, pickupLon: PICKUP.lon, dropLat: PICKUP.lat + 0.05, dropLon: PICKUP.lon }, other.token);
    assert.equal(waiting.status, 200);
    await offerFor(survivor.url, second, waiting.body.id, 10_000);
    assert.match(survivor.output(), /"leading":true/, 'the survivor took the lead');
    // The first ride's offer is still the one and only pending offer of the first driver.
    const offers = await http(`${survivor.url}/drivers/me/offers`, 'GET', undefined, first.token);
    assert.deepEqual((offers.body as Array<{ rideId: number }>).map((o) => o.rideId), [booked.body.id]);
  });
});
