// The API's shapes, from the contract (src/contract/types.ts, types only): a field renamed on the
// server is a type error here.
export type * from '../../../src/contract/types.ts';
export type { AdminPage } from '../../../src/contract/routes.ts';
