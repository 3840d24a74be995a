// The zones' geometry (H3 cells), apart from rules.ts: h3-js weighs about 51 KB and only the
// operator console draws zones, so only what imports this file carries it.
export { zoneCentre } from '../platform/geo/zones.ts';
