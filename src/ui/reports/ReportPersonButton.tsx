// «Пожаловаться» on a person (a direct chat's «Информация»): the button and its dialog.
import { useCallback, useState } from 'react';
import { ReportDialog } from './ReportDialog';

export function ReportPersonButton(props: { userId: string }) {
  const [open, setOpen] = useState(false);
  const close = useCallback(() => setOpen(false), []);
  return (
    <>
      <button type="button" className="button ghost" onClick={() => setOpen(true)}>
        Пожаловаться
      </button>
      {open && <ReportDialog target={{ userId: props.userId }} onClose={close} />}
    </>
  );
}
