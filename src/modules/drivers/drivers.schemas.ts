import { Type } from 'typebox';
import { Latitude, Longitude, Timestamp } from '../../platform/schemas.ts';

export const PositionBody = Type.Object({ lat: Latitude, lon: Longitude });

export const DriverLocation = Type.Object({
  driverId: Type.Integer(),
  lat: Type.Number(),
  lon: Type.Number(),
  updatedAt: Timestamp,
  visibleUntil: Type.String({ format: 'date-time', description: 'Riders stop seeing you after this unless you report again' }),
});
