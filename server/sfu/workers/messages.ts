// What the main process and a media worker say to each other (structured clone over the worker's port). The main
// process owns the websockets; a worker owns the rooms, and sees each client's socket as a numbered channel.
import type { RoomMember, SfuStats } from '../engine';
import type { Grants } from '../grants';
import type { PeerMode } from '../session/participant';

export type ToWorker =
  /** An authenticated client for this worker's room: join or resume (the JoinRequest as protobuf bytes). */
  | { t: 'open'; id: number; grants: Grants; mode: PeerMode; joinRequest: Uint8Array | null }
  /** One websocket frame of that client. */
  | { t: 'frame'; id: number; data: ArrayBuffer; binary: boolean }
  /** Its websocket closed. */
  | { t: 'closed'; id: number }
  | { t: 'remove'; req: number; room: string; identities: string[] }
  | { t: 'members'; req: number; room: string }
  | { t: 'shutdown'; req: number; reason: string }
  /** Close every UDP socket (answered once they are closed): the worker is about to be terminated. */
  | { t: 'closeSockets'; req: number };

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export type FromWorker =
  | { t: 'ready' }
  /** A SignalResponse for the client's websocket. */
  | { t: 'send'; id: number; data: Uint8Array }
  | { t: 'close'; id: number; code: number; reason: string }
  | { t: 'room'; room: string; open: boolean }
  /** Who is in the room after a join or leave (identities). */
  | { t: 'people'; room: string; identities: string[] }
  | { t: 'stats'; stats: SfuStats }
  | { t: 'reply'; req: number; value: number | RoomMember[] }
  | { t: 'log'; level: LogLevel; obj: object | string; msg?: string };
