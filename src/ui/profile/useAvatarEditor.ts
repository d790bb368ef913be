import { useSelector } from '@xstate/react';
import type { AvatarEvent, AvatarRef, PixelArea, Point } from '../../machines/profile/avatar/avatar.protocol';
import type { OwnedRef } from '../app/useOwnedActor';

export type AvatarStage = 'idle' | 'reading' | 'editing' | 'busy' | 'done';

/**
 * The avatar editor's view of its actor: the profile dialog's (undefined while the dialog is closed) or the group
 * picture's (its own, told from its first paint even while its code is on its way).
 */
export function useAvatarEditor(actor: OwnedRef<AvatarRef> | undefined) {
  const stage = useSelector(actor, (s): AvatarStage => {
    if (!s) return 'idle';
    if (s.hasTag('busy')) return 'busy';
    if (s.hasTag('done')) return 'done';
    if (s.hasTag('editing')) return 'editing';
    if (s.hasTag('reading')) return 'reading';
    return 'idle';
  });
  const source = useSelector(actor, (s) => s?.context.source ?? null);
  const crop = useSelector(actor, (s) => s?.context.crop ?? { x: 0, y: 0 });
  const zoom = useSelector(actor, (s) => s?.context.zoom ?? 1);
  const error = useSelector(actor, (s) => s?.context.error ?? null);
  const send = (e: AvatarEvent) => actor?.send(e);
  return {
    stage,
    source,
    crop,
    zoom,
    error,
    onFile: (file: File) => send({ type: 'avatar.selected', file }),
    onMove: (point: Point) => send({ type: 'avatar.moved', crop: point }),
    onZoom: (value: number) => send({ type: 'avatar.zoomed', zoom: value }),
    onArea: (area: PixelArea) => send({ type: 'avatar.areaChanged', area }),
    onUpload: () => send({ type: 'avatar.upload' }),
    onCancel: () => send({ type: 'avatar.cancel' }),
  };
}

export type AvatarEditorView = ReturnType<typeof useAvatarEditor>;
