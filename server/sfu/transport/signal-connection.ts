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
    let req: SignalRequest;
    try {
      const bytes = Array.isArray(data) ? Buffer.concat(data) : data;
      req = isBinary
        ? SignalRequest.fromBinary(bytes)
        : SignalRequest.fromJson(JSON.parse(bytes.toString('utf8')), { ignoreUnknownFields: true });
    } catch (err) {
      this.logger.warn({ err: String(err) }, 'malformed signal frame');
      this.close(CloseCode.invalidData, 'malformed signal frame: not a livekit.SignalRequest');
      return null;
    }
    if (req.message.case === undefined) {
      this.close(CloseCode.unsupported, 'unknown signal request');
      return null;
    }
    return req.message;
  }
}
