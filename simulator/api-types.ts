import type { Static } from 'typebox';
import type { CreateUserBody, AdminUser } from '../src/modules/admin/admin.schemas.ts';
import type { TokenResponse } from '../src/modules/auth/auth.schemas.ts';
import type { Offer } from '../src/modules/dispatch/offers.schemas.ts';
import type { DriverProfile, ProfileBody } from '../src/modules/drivers/drivers.schemas.ts';
import type { OrderBody, OrderResponse, VerifyBody } from '../src/modules/payments/payments.schemas.ts';
import type { BookBody, Ride, RideStatus, RideStatusResponse, StatusBody } from '../src/modules/rides/rides.schemas.ts';
import type { UserMessages } from '../src/events.ts';
import type { UserMessage } from '../src/platform/realtime/hub.ts';

// The shapes the simulator sends and receives, taken from the service's own schemas (types only:
// nothing of the service runs in the simulator), so a changed field breaks the type-check here.

export type { AdminUser, BookBody, CreateUserBody, DriverProfile, Offer, OrderBody, ProfileBody, Ride, RideStatus, RideStatusResponse, StatusBody, TokenResponse, VerifyBody };
export type { RideType, PaymentMode } from '../src/platform/vocabulary.ts';
export type { VehicleType } from '../src/modules/drivers/vehicles.ts';
export type { Role } from '../src/platform/auth/roles.ts';
export type Order = Static<typeof OrderResponse>;

/** A message of the realtime channel, narrowed by its `type`. */
export type ServerMessage = { [K in keyof UserMessages]: UserMessage<UserMessages, K> }[keyof UserMessages];
