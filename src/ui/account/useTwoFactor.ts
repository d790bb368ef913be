import { useSelector } from '@xstate/react';
import qrcode from 'qrcode-generator';
import { useMemo } from 'react';
import { useOwnedActor } from '../app/useOwnedActor';

/** The otpauth:// address as a QR code image (a data URL) for the authenticator app to scan. */
function qrOf(uri: string): string {
  const qr = qrcode(0, 'M');
  qr.addData(uri);
  qr.make();
  return qr.createDataURL(4, 2);
}

/** «Безопасность» → «Двухэтапная проверка»: its actor (alive while the section is mounted) as values and callbacks. */
export function useTwoFactor() {
  const actor = useOwnedActor('twoFactor');
  const busy = useSelector(actor, (s) => s?.hasTag('busy') ?? true);
  const failed = useSelector(actor, (s) => s?.hasTag('failed') ?? false);
  const settingUp = useSelector(actor, (s) => s?.hasTag('settingUp') ?? false);
  const status = useSelector(actor, (s) => s?.context.status ?? null);
  const secret = useSelector(actor, (s) => s?.context.secret ?? null);
  const uri = useSelector(actor, (s) => s?.context.uri ?? null);
  const recoveryCodes = useSelector(actor, (s) => (s?.hasTag('showingCodes') ? s.context.recoveryCodes : null));
  const error = useSelector(actor, (s) => s?.context.error ?? null);
  const qr = useMemo(() => (uri ? qrOf(uri) : null), [uri]);
  return {
    busy,
    failed,
    settingUp,
    status,
    secret,
    qr,
    recoveryCodes,
    error,
    onBegin: (password?: string) =>
      actor.send(password ? { type: 'twoFactor.begin', password } : { type: 'twoFactor.begin' }),
    onConfirm: (code: string) => actor.send({ type: 'twoFactor.confirm', code }),
    onCancel: () => actor.send({ type: 'twoFactor.cancel' }),
    onDone: () => actor.send({ type: 'twoFactor.done' }),
    onDisable: (password: string) => actor.send({ type: 'twoFactor.disable', password }),
    onRegenerate: (password: string) => actor.send({ type: 'twoFactor.regenerate', password }),
    onRetry: () => actor.send({ type: 'twoFactor.retry' }),
    onCopy: (text: string) => {
      void navigator.clipboard?.writeText(text).catch(() => {});
    },
  };
}
export type TwoFactorViewProps = ReturnType<typeof useTwoFactor>;
