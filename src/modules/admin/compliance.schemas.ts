import { Type, type Static } from 'typebox';
import { COMPLIANCE_PROFILES } from '../pricing/pricing.schemas.ts';

export const ComplianceQuery = Type.Object({
  from: Type.String({ format: 'date-time', description: 'Rides booked at or after' }),
  to: Type.String({ format: 'date-time', description: 'Rides booked before (at most 92 days after from)' }),
  profile: Type.Optional(Type.Enum(COMPLIANCE_PROFILES, { description: 'The profile to check against (default IN-MVAG-2025)' })),
});
export type ComplianceQuery = Static<typeof ComplianceQuery>;

export const ComplianceBreach = Type.Object({
  rideId: Type.Integer(),
  pricingVersion: Type.Integer({ description: 'The version the ride was priced with (GET /pricing/versions/{v})' }),
  rule: Type.String({ description: "The profile's rule the ride breaks, e.g. surge-between-half-and-double" }),
  problem: Type.String({ description: 'What is wrong, in words' }),
});
export type ComplianceBreach = Static<typeof ComplianceBreach>;

export const ComplianceReport = Type.Object({
  profile: Type.Enum(COMPLIANCE_PROFILES),
  from: Type.String({ format: 'date-time' }),
  to: Type.String({ format: 'date-time' }),
  ridesChecked: Type.Integer({ description: 'Rides booked in the period' }),
  breaches: Type.Array(ComplianceBreach, { description: 'One entry per ride and rule it breaks, by ride id' }),
});
export type ComplianceReport = Static<typeof ComplianceReport>;
