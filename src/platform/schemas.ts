import { Type } from 'typebox';

/** Schemas shared by several modules. */
export const MessageResponse = Type.Object({ message: Type.String() });
