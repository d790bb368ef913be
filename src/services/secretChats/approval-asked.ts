// Whether this browser is asking another device of its person for approval (docs/secret-chats.md "Identity keys").
// The identity effects tell it when a request opens and ends; the background registration, which leaves a new
// browser unapproved until it needs secret chats, hears it and lets the device actor and its approval view take over
// (they show the code). Apart from both, so that the registration's small chunk does not load the device's code.

type Heard = () => void;
const listeners = new Set<Heard>();
let open = false;

export function approvalAsked(asking: boolean): void {
  open = asking;
  if (asking) for (const l of [...listeners]) l();
}

/** Calls `heard` now if a request is open, and at each request this browser makes; the returned function stops. */
export function onApprovalAsked(heard: Heard): () => void {
  listeners.add(heard);
  if (open) heard();
  return () => {
    listeners.delete(heard);
  };
}
