import { Type, type Static } from 'typebox';
import { Nullable, OptionalTimestamp, Timestamp } from '../../platform/schemas.ts';
import { Ride } from '../rides/rides.schemas.ts';

export const INCIDENT_STATUSES = ['open', 'acknowledged', 'resolved'] as const;
export type IncidentStatus = (typeof INCIDENT_STATUSES)[number];

/** The reporter's part in the ride. */
export const REPORTER_PARTIES = ['rider', 'driver'] as const;
export type ReporterParty = (typeof REPORTER_PARTIES)[number];

const NOTE_MAX = 2000;
const NoteText = (description: string) => Type.String({ minLength: 1, maxLength: NOTE_MAX, pattern: '\\S', description });

export const SosBody = Type.Object({
  note: Type.Optional(Type.Union([Type.String({ maxLength: NOTE_MAX, description: 'What is happening, if there is time to say' }), Type.Null()])),
});
export type SosBody = Static<typeof SosBody>;

export const NoteBody = Type.Object({ text: NoteText('What the operator did or learned') });
export type NoteBody = Static<typeof NoteBody>;

export const IncidentIdParams = Type.Object({ incidentId: Type.Integer({ minimum: 1 }) });

export const IncidentsQuery = Type.Object({
  status: Type.Optional(Type.Enum(INCIDENT_STATUSES)),
});
export type IncidentsQuery = Static<typeof IncidentsQuery>;

/** What the reporter hears back: the incident is open and operators were told. */
export const SosReceipt = Type.Object({
  incidentId: Type.Integer(),
  status: Type.Enum(INCIDENT_STATUSES),
  createdAt: Timestamp,
  /** Whether the reporter's emergency contact is being sent the trip's link (an e-mail, or a text logged until SMS exists). */
  emergencyContactTold: Type.Boolean(),
});
export type SosReceipt = Static<typeof SosReceipt>;

const Party = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  email: Type.String(),
});

const Note = Type.Object({
  id: Type.Integer(),
  authorId: Type.Integer(),
  text: Type.String(),
  at: Timestamp,
});

const TrackPoint = Type.Object({ lat: Type.Number(), lon: Type.Number(), at: Timestamp });

/** An incident as operators see it: the ride, both parties, the track since the SOS, the notes. */
export const Incident = Type.Object({
  id: Type.Integer(),
  status: Type.Enum(INCIDENT_STATUSES),
  rideId: Type.Integer(),
  reporterId: Type.Integer(),
  party: Type.Enum(REPORTER_PARTIES, { description: "The reporter's part in the ride" }),
  createdAt: Timestamp,
  acknowledgedAt: OptionalTimestamp,
  acknowledgedBy: Nullable(Type.Integer()),
  resolvedAt: OptionalTimestamp,
  resolvedBy: Nullable(Type.Integer()),
  ride: Type.Union([Ride, Type.Null()], { description: "The ride in the operators' view" }),
  rider: Type.Union([Party, Type.Null()]),
  driver: Type.Union([Party, Type.Null()]),
  track: Type.Array(TrackPoint, { description: "The driver's positions from the SOS on, oldest first" }),
  notes: Type.Array(Note, { description: "The reporter's note first, then the operators', oldest first" }),
});
export type Incident = Static<typeof Incident>;

export const IncidentList = Type.Object({ items: Type.Array(Incident) });
