import { randomBytes } from 'node:crypto';
import { ApiClient, ApiError, type Http } from './api.ts';
import type { Role } from './api-types.ts';

/** How the simulator gets an operator's rights: a token an operator gave, or an ADMIN account to log in with. */
export type AdminAccess = { token: string } | { email: string; password: string };

/** Account creation and logins run a few at a time: each hashes a password, which is slow on purpose. */
const PARALLEL = 4;

export async function adminClient(http: Http, access: AdminAccess): Promise<ApiClient> {
  if ('token' in access) return ApiClient.withToken(http, access.token);
  try {
    return await ApiClient.login(http, access.email, access.password);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) throw new Error(`the service refused the admin login of ${access.email}: wrong e-mail or password`, { cause: error });
    throw error;
  }
}

/**
 * The run's drivers and riders, created by the operator (POST /admin/users, no e-mail code) and
 * signed in. E-mails are unique to the run, under the reserved `.invalid` domain, so runs against
 * one service never collide and no mail can reach anyone; the password is random and never shown.
 */
export async function createAccounts(admin: ApiClient, counts: { drivers: number; riders: number }): Promise<{ drivers: ApiClient[]; riders: ApiClient[] }> {
  const run = randomBytes(4).toString('hex');
  const password = randomBytes(18).toString('base64url');
  const make = async (role: Role, label: string, i: number): Promise<ApiClient> => {
    const email = `${label}-${i + 1}.${run}@simulator.invalid`;
    try {
      await admin.createUser({ name: `Simulated ${label} ${i + 1}`, email, password, role });
    } catch (error) {
      if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
        throw new Error(`creating accounts needs an ADMIN's token (POST /admin/users answered ${error.status} ${error.code}); see docs/simulator.md "Accounts"`, {
          cause: error,
        });
      }
      throw error;
    }
    return ApiClient.login(admin.http, email, password);
  };
  const drivers = await inParallel(counts.drivers, (i) => make('DRIVER', 'driver', i));
  const riders = await inParallel(counts.riders, (i) => make('RIDER', 'rider', i));
  return { drivers, riders };
}

/** `count` results of `work(i)`, at most PARALLEL at a time, in index order. */
export async function inParallel<T>(count: number, work: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array<T>(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      results[i] = await work(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, count) }, worker));
  return results;
}
