import type { Static, TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import type { AuthUser, Role } from '../auth/roles.ts';
import { AppError, badRequest, forbidden } from '../errors.ts';

// What a client may send over the realtime channel besides the channel's own `auth` and `ping`:
// each module registers the message types it handles (in its *.module.ts), each with the TypeBox
// schema of its fields, the roles that may send it and its handler. The connection looks a message
// up here; nothing about a module's messages is written in platform/ or app.ts.

/** The messages the channel answers itself, whatever the modules register. */
export type ChannelMessage = { type: 'auth'; token: string; resumeAfter?: number } | { type: 'ping' };
const RESERVED: ReadonlySet<string> = new Set<ChannelMessage['type']>(['auth', 'ping']);

/** Client message types with the fields each carries besides `type` (src/events.ts `ClientMessages`). */
export type ClientMessageMap = Record<string, object>;

/** Every message of a map as a client sends it: its fields with its `type`. */
export type ClientMessageOf<M extends ClientMessageMap> = { [K in keyof M & string]: { type: K } & M[K] }[keyof M & string];

export interface ClientMessageDefinition<S extends TSchema> {
  /** The fields besides `type`; compiled once, and a message it refuses never reaches `handle`. */
  schema: S;
  /** Who may send it; anyone else is answered FORBIDDEN. */
  roles: readonly Role[];
  /** Takes a valid message (without `type`); an AppError of 4xx is answered with its code and message, anything else as INTERNAL_ERROR. */
  handle(user: AuthUser, message: Static<S>): Promise<void>;
}

interface Entry {
  check(value: unknown): boolean;
  explain(value: unknown): string;
  roles: ReadonlySet<Role>;
  handle(user: AuthUser, message: unknown): Promise<void>;
}

/** The client message types the modules take, typed by their map `M` so a registration matches what clients send. */
export class ClientMessageRegistry<M extends ClientMessageMap> {
  readonly #entries = new Map<string, Entry>();

  /** Registers a message type; the schema's type must be the map's, so the clients' type and the check cannot differ. */
  register<K extends keyof M & string, S extends TSchema>(type: K, definition: ClientMessageDefinition<S> & ([Static<S>] extends [M[K]] ? unknown : { schema: never })): void {
    if (RESERVED.has(type)) throw new Error(`"${type}" is the realtime channel's own message`);
    if (this.#entries.has(type)) throw new Error(`the client message "${type}" is registered twice`);
    if (definition.roles.length === 0) throw new Error(`the client message "${type}" names no role that may send it`);
    const validator = Compile(definition.schema);
    this.#entries.set(type, {
      check: (value) => validator.Check(value),
      explain: (value) => {
        const [first] = validator.Errors(value);
        return first ? `${type}${first.instancePath.replaceAll('/', '.')} ${first.message}` : `${type} is not valid`;
      },
      roles: new Set(definition.roles),
      handle: (user, message) => definition.handle(user, message as Static<S>),
    });
  }

  /** The registered types, in the order they were registered. */
  get types(): string[] {
    return [...this.#entries.keys()];
  }

  /** The roles that may send `type`. */
  rolesOf(type: string): readonly Role[] {
    return [...(this.#entries.get(type)?.roles ?? [])];
  }

  /**
   * Hands an authenticated user's message to its module. Throws an AppError for what the channel
   * refuses: an unknown type (or no JSON object) UNKNOWN_MESSAGE, a role not allowed FORBIDDEN, fields
   * the schema refuses VALIDATION_FAILED naming the first field at fault.
   */
  async dispatch(user: AuthUser, message: Record<string, unknown> | undefined): Promise<void> {
    const entry = typeof message?.type === 'string' ? this.#entries.get(message.type) : undefined;
    if (!message || !entry) {
      const known = ['ping', ...this.#entries.keys()].map((type) => `"${type}"`).join(', ');
      throw new AppError(400, 'UNKNOWN_MESSAGE', `expected a JSON object whose type is one of ${known}`);
    }
    const { type, ...fields } = message;
    if (!entry.roles.has(user.role)) throw forbidden(`"${type as string}" is sent by ${[...entry.roles].join(' or ')} only`);
    if (!entry.check(fields)) throw badRequest(entry.explain(fields));
    await entry.handle(user, fields);
  }
}

/** What the channel needs of a registry, whatever its map. */
export type ClientMessageDispatcher = Pick<ClientMessageRegistry<ClientMessageMap>, 'dispatch' | 'types' | 'rolesOf'>;
