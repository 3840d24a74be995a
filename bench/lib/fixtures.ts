// The benchmark's bulk loader: accounts, rides and tokens written straight into the service's
// database with the project's own migrations and token service, far faster than signing up
// thousands of users through e-mail codes. The service is started on that database afterwards.
import type { Config } from '../../src/config.ts';
import { connectDatabase } from '../../src/db/connect.ts';
import { hashPassword } from '../../src/platform/auth/passwords.ts';
import { TokenService } from '../../src/platform/auth/tokens.ts';
import { systemClock } from '../../src/platform/clock.ts';

export interface Account {
  id: number;
  token: string;
}

export interface Fixtures {
  riders: Account[];
  drivers: Account[];
  /** Rides in ACCEPTED, ride i driven by drivers[i]. */
  rides: Array<{ id: number; driverToken: string; pickup: { lat: number; lon: number } }>;
}

const CHUNK = 500;

export async function loadFixtures(config: Config, counts: { riders: number; drivers: number; acceptedRides: number }): Promise<Fixtures> {
  const database = connectDatabase(config.database);
  try {
    await database.migrate();
    // One unit of work: the connection's `db` only reads (on SQLite it is opened read-only).
    return await database.transactions.run(async ({ db }) => {
      const tokens = new TokenService(config.jwtSecret, config.accessTokenTtlSeconds, systemClock);
      const passwordHash = await hashPassword('bench-password');
      const now = Date.now();
      const insertUsers = async (role: string, count: number) => {
        const accounts: Account[] = [];
        const tag = `${role.toLowerCase()}-${now}`;
        for (let start = 0; start < count; start += CHUNK) {
          const rows = await db
            .insertInto('users')
            .values(
              Array.from({ length: Math.min(CHUNK, count - start) }, (_, i) => ({
                email: `${tag}-${start + i}@bench.local`,
                name: `${role} ${start + i}`,
                password_hash: passwordHash,
                role,
                created_at: now,
                updated_at: now,
              })),
            )
            .returning('id')
            .execute();
          for (const { id } of rows) accounts.push({ id, token: await tokens.signAccess({ id, role: role as 'RIDER' | 'DRIVER' }) });
        }
        return accounts;
      };
      const riders = await insertUsers('RIDER', counts.riders);
      const drivers = await insertUsers('DRIVER', counts.drivers);

      const rides: Fixtures['rides'] = [];
      for (let start = 0; start < counts.acceptedRides; start += CHUNK) {
        const batch = Array.from({ length: Math.min(CHUNK, counts.acceptedRides - start) }, (_, i) => start + i);
        const rows = await db
          .insertInto('rides')
          .values(
            batch.map((i) => {
              const pickup = { lat: 12.9 + (i % 100) * 0.002, lon: 77.5 + Math.floor(i / 100) * 0.002 };
              return {
                rider_id: riders[i % riders.length].id,
                driver_id: drivers[i].id,
                status: 'ACCEPTED',
                ride_type: 'mini',
                pickup_lat: pickup.lat,
                pickup_lon: pickup.lon,
                drop_lat: pickup.lat + 0.05,
                drop_lon: pickup.lon + 0.05,
                distance_km: 9.6,
                duration_minutes: 24,
                surge_multiplier: 1,
                fare: 213,
                payment_mode: 'CASH',
                payment_status: 'PENDING',
                start_otp: '1234',
                end_otp: '5678',
                created_at: now,
                accepted_at: now,
              };
            }),
          )
          .returning(['id', 'pickup_lat', 'pickup_lon'])
          .execute();
        rows.forEach((row, k) => rides.push({ id: row.id, driverToken: drivers[batch[k]].token, pickup: { lat: row.pickup_lat!, lon: row.pickup_lon! } }));
      }
      return { riders, drivers, rides };
    });
  } finally {
    await database.destroy();
  }
}
