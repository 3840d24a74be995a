// The shapes the simulator sends and receives, from the contract (types only: nothing of the
// service runs in the simulator), so a changed field breaks the type-check here.
export type {
  AdminUser,
  BookBody,
  ChargeBody,
  CreateUserBody,
  DriverProfile,
  Offer,
  OrderBody,
  PaymentMode,
  PricingHistory,
  PricingRules,
  PricingVersion,
  ProfileBody,
  Ride,
  RideStatus,
  RideStatusResponse,
  RideType,
  Role,
  ServerMessage,
  StatusBody,
  TokenResponse,
  VehicleType,
  VerifyBody,
} from '../src/contract/types.ts';
export type { OrderResponse as Order } from '../src/contract/types.ts';
