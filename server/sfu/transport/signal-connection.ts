// One client's signalling websocket: SignalRequest protobufs in, SignalResponse protobufs out. A frame that is not
// a SignalRequest closes this connection (and only this one) with a reason the client can read.
import { SignalRequest } from '@livekit/protocol';
import type { WebSocket } from 'ws';
import type { SfuLogger } from '../logger';
import { CloseCode, encodeResponse, type RequestMessage, type ResponseMessage, type SignalLink } from '../signal';

export class SignalConnection implements SignalLink {
  private closedHandlers: Array<() => void> = [];

  constructor(
    private readonly ws: WebSocket,
    private readonly logger: SfuLogger,
    onRequest: (msg: RequestMessage) => void,
  ) {
    ws.on('message', (data, isBinary) => {
      const msg = this.decode(data as Buffer | Buffer[], isBinary);
      if (msg) onRequest(msg);
    });
    ws.on('close', () => {
      for (const h of this.closedHandlers) h();
    });
    ws.on('error', (err) => logger.debug({ err }, 'signal socket error'));
  }

  get open(): boolean {
    return this.ws.readyState === this.ws.OPEN;
  }

  onClose(handler: () => void): void {
    this.closedHandlers.push(handler);
  }

  send(message: ResponseMessage): void {
    if (this.open) this.ws.send(encodeResponse(message));
  }

  /** A SignalResponse already encoded (encodeResponse): one encoding for a message every participant gets. */
  sendEncoded(bytes: Uint8Array): void {
    if (this.open) this.ws.send(bytes);
  }

  close(code: number, reason: string): void {
    // A websocket close reason is at most 123 bytes.
    if (this.ws.readyState <= this.ws.OPEN) this.ws.close(code, Buffer.from(reason).subarray(0, 123).toString());
  }

  private decode(data: Buffer | Buffer[], isBinary: boolean): RequestMessage | null {
    const decoded = decodeSignalRequest(Array.isArray(data) ? Buffer.concat(data) : data, isBinary);
    if ('message' in decoded) return decoded.message;
    if (decoded.code === CloseCode.invalidData) this.logger.warn({ err: decoded.error }, 'malformed signal frame');
    this.close(decoded.code, decoded.reason);
    return null;
  }
}

/** One frame from a client: its request, or why the connection must close (worker channels decode the same way). */
export function decodeSignalRequest(
  bytes: Uint8Array,
  isBinary: boolean,
): { message: RequestMessage } | { code: number; reason: string; error?: string } {
  let req: SignalRequest;
  try {
    req = isBinary
      ? SignalRequest.fromBinary(bytes)
      : SignalRequest.fromJson(JSON.parse(Buffer.from(bytes).toString('utf8')), { ignoreUnknownFields: true });
  } catch (err) {
    return {
      code: CloseCode.invalidData,
      reason: 'malformed signal frame: not a livekit.SignalRequest',
      error: String(err),
    };
  }
  if (req.message.case === undefined) return { code: CloseCode.unsupported, reason: 'unknown signal request' };
  return { message: req.message };
}
