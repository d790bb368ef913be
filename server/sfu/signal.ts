// The signalling messages and the one interface the session layer talks through: session code sends
// SignalResponses and reads SignalRequests without knowing the websocket behind them (transport/).
import { type SignalRequest, SignalResponse } from '@livekit/protocol';

export type ResponseMessage = SignalResponse['message'];
export type RequestMessage = Exclude<SignalRequest['message'], { case: undefined }>;

export const encodeResponse = (message: ResponseMessage): Uint8Array => new SignalResponse({ message }).toBinary();

export const CloseCode = { normal: 1000, goingAway: 1001, unsupported: 1003, invalidData: 1007, policy: 1008 } as const;

/** One client's signalling channel, as the session layer sees it. */
export interface SignalLink {
  readonly open: boolean;
  send(message: ResponseMessage): void;
  /** A SignalResponse already encoded (encodeResponse): one encoding for a message every participant gets. */
  sendEncoded(bytes: Uint8Array): void;
  close(code: number, reason: string): void;
  onClose(handler: () => void): void;
}

/** Opens the channel of a client the transport has accepted, delivering its requests to `onRequest`. */
export type OpenSignal = (onRequest: (message: RequestMessage) => void) => SignalLink;
