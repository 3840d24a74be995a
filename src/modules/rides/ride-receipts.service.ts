import type { Db } from '../../db/database.ts';
import type { AuthUser } from '../../platform/auth/roles.ts';
import { conflict, forbidden, notFound } from '../../platform/errors.ts';
import type { ReceiptSigner } from '../../platform/receipt-signing.ts';
import type { Pricing } from '../pricing/pricing.service.ts';
import { viewerOf } from './ride-access.ts';
import { buildReceipt, receiptKindOf } from './ride-receipt.ts';
import type { SignedReceipt } from './receipt.schemas.ts';
import * as repository from './rides.repository.ts';

/** GET /rides/{id}/receipt: a finished ride's signed receipt, for its rider, its driver and operators. */
export class RideReceipts {
  readonly #db: Db;
  readonly #pricing: Pick<Pricing, 'rules'>;
  readonly #signer: Pick<ReceiptSigner, 'sign'>;
  readonly #timeZone: string;

  /** `timeZone`: SERVICE_TIMEZONE, where the night window is. */
  constructor(deps: { db: Db; pricing: Pick<Pricing, 'rules'>; signer: Pick<ReceiptSigner, 'sign'>; timeZone: string }) {
    this.#db = deps.db;
    this.#pricing = deps.pricing;
    this.#signer = deps.signer;
    this.#timeZone = deps.timeZone;
  }

  /** The same ride gives the same receipt and signature every time (Ed25519 is deterministic). */
  async receipt(user: AuthUser, id: number): Promise<SignedReceipt> {
    const ride = await repository.findRide(this.#db, id);
    if (!ride) throw notFound(`Ride ${id} not found`);
    if (viewerOf(user, ride) === 'public') throw forbidden("Only the ride's rider, its driver or an operator can see its receipt");
    const kind = receiptKindOf(ride);
    if (!kind) {
      throw conflict(`Ride ${id} is ${ride.status}; a receipt exists once it is COMPLETED, or CANCELLED with a fee`, 'RECEIPT_NOT_AVAILABLE');
    }
    const receipt = buildReceipt(ride, kind, await this.#pricing.rules(ride.pricing_version), this.#timeZone);
    return { receipt, signature: this.#signer.sign(receipt) };
  }
}
