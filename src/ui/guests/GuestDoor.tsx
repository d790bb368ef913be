// The door of an open plain call (docs/behaviour.md §10.40): «Пригласить по ссылке» and the link to pass on, «Гость
// Анна хочет войти» with «Впустить» / «Отклонить»; the call inside gets «Удалить из звонка» for its guests. Loaded
// with the call overlay, never in the first bundle. At a secret chat's call each knock shows the code to compare with
// the guest's page, or why its key is not vouched for (docs/secret-chats.md "Guests in encrypted calls").
import type { ReactNode } from 'react';
import { RoomLinks } from './RoomLinks';
import { type GuestDoorView, useGuestDoor } from './useGuestDoor';
import './guests.css';

export interface GuestDoorProps {
  room: string;
  /** A secret chat's call. */
  secret?: { userId: string; conversationId: string } | null;
  /** The call, given the way to remove a guest from it. */
  children: (removeGuest: (knockId: string) => void) => ReactNode;
}

export function GuestDoor({ children, ...props }: GuestDoorProps) {
  const view = useGuestDoor(props.room, props.secret ?? null);
  return (
    <>
      <GuestDoorPanel {...view} />
      {/* A conversation's links are in its «Информация»; a named room of /calls has only this place. */}
      {!props.room.startsWith('conv-') && <RoomLinks room={props.room} />}
      {children(view.onRemove)}
    </>
  );
}

export function GuestDoorPanel(props: GuestDoorView) {
  return (
    <div className="guest-door">
      <div className="guest-door-invite">
        <button type="button" className="button" disabled={props.busy} onClick={props.onInvite}>
          Пригласить по ссылке
        </button>
        {props.linkUrl && (
          <label className="guest-door-link">
            <span>Ссылка для гостя (скопирована):</span>
            <input readOnly value={props.linkUrl} data-testid="guest-link" onFocus={(e) => e.currentTarget.select()} />
          </label>
        )}
      </div>
      {props.error && (
        <p className="form-error" role="alert">
          {props.error}{' '}
          <button type="button" className="link-button" onClick={props.onDismissError}>
            Скрыть
          </button>
        </p>
      )}
      {props.waiting.length > 0 && (
        <ul className="guest-door-knocks" aria-label="Гости у двери">
          {props.waiting.map((g) => (
            <li key={g.id} className="guest-door-knock" role="alert">
              <span>Гость {g.name} хочет войти</span>
              {props.encrypted && g.check?.shortCode && (
                <span className="guest-door-code" data-testid="guest-door-code">
                  Код: {g.check.shortCode}
                </span>
              )}
              {props.encrypted && g.check?.problem && <span className="form-error">{g.check.problem}</span>}
              <button
                type="button"
                className="button primary"
                disabled={props.busy || (props.encrypted && !g.check?.verified)}
                onClick={() => props.onAdmit(g.id)}
              >
                Впустить
              </button>
              <button type="button" className="button" disabled={props.busy} onClick={() => props.onDeny(g.id)}>
                Отклонить
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export default GuestDoor;
