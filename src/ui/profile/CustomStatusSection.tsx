// Settings: one's own status (docs/behaviour.md §10.44) — what it is now and until when, and «Изменить статус», which
// opens the «Статус» dialog (its code loads then).
import { Suspense, useCallback, useState } from 'react';
import { customStatusLine } from '../../contract/custom-status';
import type { CustomStatus } from '../../contract/entities';
import { formatTime } from '../../contract/format';
import { lazyView } from '../shared/lazy-view';
import type { CustomStatusDialogProps } from './CustomStatusDialog';

const LazyCustomStatusDialog = lazyView<CustomStatusDialogProps>(() =>
  import('./CustomStatusDialog').then((m) => m.CustomStatusDialog),
);

/** «до 18:30» today, «до 5 марта, 18:30» on another day. */
export function untilText(expiresAt: string | null, now: number = Date.now()): string {
  if (!expiresAt) return '';
  const at = new Date(expiresAt);
  const sameDay = at.toDateString() === new Date(now).toDateString();
  const day = at.toLocaleDateString('ru-RU', { day: 'numeric', month: 'long' });
  return sameDay ? `до ${formatTime(at)}` : `до ${day}, ${formatTime(at)}`;
}

export function CustomStatusSection({ current }: { current: CustomStatus | null }) {
  const [open, setOpen] = useState(false);
  const close = useCallback(() => setOpen(false), []);
  return (
    <section className="card form settings-custom-status" aria-labelledby="settings-custom-status">
      <h2 className="form-title" id="settings-custom-status">
        Статус с эмодзи
      </h2>
      <p className="form-hint" data-testid="own-custom-status">
        {current
          ? `${customStatusLine(current)}${current.expiresAt ? ` · ${untilText(current.expiresAt)}` : ''}`
          : 'Не задан'}
      </p>
      <p className="hint">Виден в профиле, в заголовке личного чата и в списке участников группы.</p>
      <button type="button" className="button" onClick={() => setOpen(true)}>
        Изменить статус
      </button>
      <Suspense fallback={null}>{open && <LazyCustomStatusDialog current={current} onClose={close} />}</Suspense>
    </section>
  );
}
