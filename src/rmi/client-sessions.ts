// The remote-control sessions of the XML-RPC server. A client that names itself in the URL
// (http://host:1099/RPC2/<client-id>) gets a RemoteSession of its own: its loaded circuit, its
// parameter changes and its last run, which no other client id sees or changes. `/` and `/RPC2`
// (no id) reach the one shared session, as the specification's calls (no session argument) and
// single-client scripts use it. A second connection with the same id reaches the same session, so
// stopSimulation() from there stops the run blocking the first. At most `max` client sessions are
// kept: a new id then replaces the one unused longest that is not running.
import { RemoteError } from '../remote/types.js';

/** What a client may call itself: letters, digits, `.`, `_`, `-`; at most 64 characters. */
export const CLIENT_ID = /^[A-Za-z0-9._-]{1,64}$/;

export interface ClientSession {
  isRunning(): boolean;
}

export class ClientSessions<S extends ClientSession> {
  /** Insertion order is use order: the first entry is the one unused longest. */
  private readonly sessions = new Map<string, S>();

  constructor(
    private readonly create: (clientId: string) => S,
    private readonly max: number,
  ) {}

  /** The session of `clientId`, created on its first call. */
  get(clientId: string): S {
    const known = this.sessions.get(clientId);
    if (known) {
      this.sessions.delete(clientId);
      this.sessions.set(clientId, known);
      return known;
    }
    if (this.sessions.size >= this.max) this.forgetOne(clientId);
    const session = this.create(clientId);
    this.sessions.set(clientId, session);
    return session;
  }

  get size(): number {
    return this.sessions.size;
  }

  private forgetOne(newcomer: string): void {
    for (const [id, session] of this.sessions) {
      if (session.isRunning()) continue;
      this.sessions.delete(id);
      return;
    }
    throw new RemoteError('BUSY', `client ${newcomer}: all ${this.max} client sessions are running a simulation; try again when one has ended`);
  }
}
