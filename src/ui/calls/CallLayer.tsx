// The incoming-call dialog and the call overlay, mounted once in the shared layout. Owned by the calls feature.
export function CallLayer() {
  return null;
}
