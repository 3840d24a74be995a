import { Type, type Static, type TSchema } from 'typebox';
import { MAX_ID } from '../db/database.ts';

/** Schemas shared by several modules. */
export const MessageResponse = Type.Object({ message: Type.String() });

export const Latitude = Type.Number({ minimum: -90, maximum: 90 });
export const Longitude = Type.Number({ minimum: -180, maximum: 180 });

/**
 * A response field that may be null, written as a JSON Schema type list rather than anyOf: the
 * serializer then writes it directly instead of validating the value against each branch.
 */
export function Nullable<T extends TSchema & { type: string; enum?: readonly unknown[] }>(schema: T) {
  return Type.Unsafe<Static<T> | null>({ ...schema, type: [schema.type, 'null'], ...(schema.enum ? { enum: [...schema.enum, null] } : {}) });
}

/** A timestamp in a response: ISO 8601, or null when it has not happened. */
export const Timestamp = Type.String({ format: 'date-time' });
export const OptionalTimestamp = Nullable(Timestamp);

/** An optional text field of a request; null counts as not given. */
export const OptionalText = (maxLength: number) => Type.Optional(Type.Union([Type.String({ maxLength }), Type.Null()]));

/**
 * An id used as a filter (`?riderId=`): bounded by the id columns' range, so no value outside it
 * ever reaches a query (PostgreSQL would refuse it). Path ids stay unbounded: a larger one is 404.
 */
export const IdFilter = Type.Integer({ minimum: 1, maximum: MAX_ID });
