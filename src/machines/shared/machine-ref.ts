// The shape under which a machine is known to other actors and to views: its context, its tags, its named
// children, the events it accepts and the events it emits. Each machine's protocol module states it with the
// contract's types only, so a peer can address it without importing its machine file (src/machines/shared/system.ts).
import type { ActorRef, EventObject, MachineContext, Snapshot } from 'xstate';

export type ProtocolSnapshot<TContext extends MachineContext, TChildren extends object = object> = Snapshot<unknown> & {
  context: TContext;
  children: TChildren;
  hasTag(tag: string): boolean;
};

/**
 * A protocol ref's snapshot, for the selectors a protocol exports that take a parent's snapshot and return one of its
 * children: the knowledge of which actor runs under which lives in the owning feature's protocol, never in views.
 */
export type SnapshotOf<TRef> = TRef extends { getSnapshot(): infer S } ? S : never;

export type MachineRef<
  TContext extends MachineContext,
  TEvent extends EventObject,
  TEmitted extends EventObject = EventObject,
  TChildren extends object = object,
> = ActorRef<ProtocolSnapshot<TContext, TChildren>, TEvent, TEmitted>;
