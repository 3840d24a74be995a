import type { AuthUser } from '../../platform/auth/roles.ts';
import type { Counters } from '../../platform/counters.ts';
import { conflict, tooManyRequests } from '../../platform/errors.ts';
import type { Telephony } from '../../platform/telephony.ts';
import type { RideQueries } from '../rides/ride-queries.service.ts';
import { callParties } from './call-access.ts';
import type { CallReceipt } from './phones.schemas.ts';
import type { AccountPhones } from './phones.service.ts';

export interface RideCallsDependencies {
  rides: Pick<RideQueries, 'find'>;
  phones: Pick<AccountPhones, 'verifiedNumbers'>;
  /** Unset without TELEPHONY_URL: calls are refused. */
  telephony: Telephony | undefined;
  counters: Counters;
}

/** Each call rings two real phones and costs money: a few per caller per ride in ten minutes. */
export const CALLS_PER_WINDOW = 5;
const CALL_WINDOW_MS = 10 * 60_000;

/** Masked calls (decisions.md "Safety"): the telephony provider bridges a ride's rider and driver, and no answer carries either number. */
export class RideCalls {
  readonly #deps: RideCallsDependencies;

  constructor(deps: RideCallsDependencies) {
    this.#deps = deps;
  }

  /** POST /rides/{id}/call: the caller's phone rings, then the other party's, both showing the service's virtual number. */
  async call(user: AuthUser, rideId: number): Promise<CallReceipt> {
    const { rides, phones, telephony, counters } = this.#deps;
    const { calleeId, callee } = callParties(user, await rides.find(rideId));
    if (!telephony) throw conflict('Calls are not set up on this server (no TELEPHONY_URL)', 'CALLS_NOT_CONFIGURED');
    const numbers = await phones.verifiedNumbers([user.id, calleeId]);
    const from = numbers.get(user.id);
    const to = numbers.get(calleeId);
    if (!from) throw conflict('Verify your phone number first (POST /auth/phone): the call rings it', 'PHONE_NOT_VERIFIED');
    if (!to) throw conflict(`The ${callee} has no verified phone number to call`, 'PHONE_NOT_VERIFIED');
    const calls = await counters.increment(`ride-calls:${rideId}:${user.id}`, CALL_WINDOW_MS);
    if (calls.count > CALLS_PER_WINDOW) throw tooManyRequests(`At most ${CALLS_PER_WINDOW} calls per ride in 10 minutes`, calls.resetInMs / 1000);
    const { callId } = await telephony.connect({ from, to });
    return { callId, message: `Your phone rings first, then the ${callee}'s; neither of you sees the other's number.` };
  }
}
