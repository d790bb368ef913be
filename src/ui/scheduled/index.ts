// The scheduled feature's views others may render.
import { lazyView } from '../shared/lazy-view';
import type { ScheduledDialogProps } from './ScheduledDialog';

/** «Запланированные», «Отправить позже» and «Напомнить»: loads with its first opening. */
export const LazyScheduledDialog = lazyView<ScheduledDialogProps>(() =>
  import('./ScheduledDialog').then((m) => m.ScheduledDialog),
);
