import { Type, type Static } from 'typebox';
import { PageQuery } from '../../platform/pagination.ts';
import { Latitude, Longitude, Nullable, OptionalText, Timestamp } from '../../platform/schemas.ts';
import { VEHICLE_TYPES } from './vehicles.ts';

export const PositionBody = Type.Object({ lat: Latitude, lon: Longitude });
/** `{"type":"position",…}` over the realtime channel: the same fields as PUT /drivers/me/location (drivers.module.ts registers it). */
export const PositionMessage = PositionBody;

export const DriverLocation = Type.Object({
  driverId: Type.Integer(),
  lat: Type.Number(),
  lon: Type.Number(),
  updatedAt: Timestamp,
  visibleUntil: Type.String({ format: 'date-time', description: 'Riders stop seeing you after this unless you report again' }),
});
export type DriverLocation = Static<typeof DriverLocation>;

export const APPROVALS = ['pending', 'approved', 'rejected'] as const;
export type Approval = (typeof APPROVALS)[number];

export const ProfileBody = Type.Object({
  vehicleType: Type.Enum(VEHICLE_TYPES),
  vehicleNumber: Type.String({ minLength: 4, maxLength: 16, pattern: '^[A-Za-z0-9][A-Za-z0-9 -]*[A-Za-z0-9]$', description: 'Registration number, e.g. KA01AB1234' }),
  vehicleModel: OptionalText(60),
  acAvailable: Type.Optional(Type.Boolean({ default: false })),
});
export type ProfileBody = Static<typeof ProfileBody>;

export const DriverProfile = Type.Object({
  driverId: Type.Integer(),
  vehicleType: Type.Enum(VEHICLE_TYPES),
  vehicleNumber: Type.String(),
  vehicleModel: Nullable(Type.String()),
  acAvailable: Type.Boolean(),
  approval: Type.Enum(APPROVALS, { description: 'Whether an operator approved you; needed for offers only when DRIVER_APPROVAL_REQUIRED is on' }),
  approvalReason: Nullable(Type.String()),
  updatedAt: Timestamp,
});
export type DriverProfile = Static<typeof DriverProfile>;

export const DriversByApprovalQuery = Type.Object({ approval: Type.Optional(Type.Enum(APPROVALS)), ...PageQuery.properties });
