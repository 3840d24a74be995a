import { Type } from 'typebox';

/** Schemas shared by several modules. */
export const MessageResponse = Type.Object({ message: Type.String() });

export const Latitude = Type.Number({ minimum: -90, maximum: 90 });
export const Longitude = Type.Number({ minimum: -180, maximum: 180 });

/** A timestamp in a response: ISO 8601, or null when it has not happened. */
export const Timestamp = Type.String({ format: 'date-time' });
export const OptionalTimestamp = Type.Union([Timestamp, Type.Null()]);

/** An optional text field of a request; null counts as not given. */
export const OptionalText = (maxLength: number) => Type.Optional(Type.Union([Type.String({ maxLength }), Type.Null()]));
