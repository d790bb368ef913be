// Decodes the /rtc/v1 `join_request` query parameter: base64url of WrappedJoinRequest (optionally gzip'd JoinRequest).
import { gunzipSync } from 'node:zlib';
import { JoinRequest, WrappedJoinRequest, WrappedJoinRequest_Compression } from '@livekit/protocol';

const MAX_JOIN_REQUEST_BYTES = 256 * 1024;

export function decodeJoinRequest(param: string): JoinRequest {
  const wrapped = WrappedJoinRequest.fromBinary(Buffer.from(param, 'base64url'));
  let bytes = wrapped.joinRequest;
  if (wrapped.compression === WrappedJoinRequest_Compression.GZIP) {
    bytes = gunzipSync(bytes, { maxOutputLength: MAX_JOIN_REQUEST_BYTES });
  }
  return JoinRequest.fromBinary(bytes);
}
