// The incoming-call dialog, the call overlay and the notice of a call that ended by itself, mounted once in the
// shared layout (owned by the calls feature). Styles: src/ui/calls/calls.css (loaded with the layout, so the
// fallbacks below are styled while the views' chunk is still on its way).
import './calls.css';
import { type ReactNode, Suspense } from 'react';
import { InsecureText } from '../shared/InsecureNotice';
import type { GuestDoorSlot } from './CallOverlay';
import { IncomingCallDialog } from './IncomingCallDialog';
import { LazyCallOverlay, LazySecretCallOverlay } from './lazy-call-views';
import { useCallLayer } from './useCallLayer';

/** `door`: the guests feature's door around a plain call (the layout hands it in). */
export function CallLayer({ door }: { door?: GuestDoorSlot }) {
  return <CallLayerView {...useCallLayer()} door={door ?? null} />;
}

type CallLayerProps = ReturnType<typeof useCallLayer>;

export function CallLayerView(
  props: Omit<CallLayerProps, 'secret' | 'insecure'> &
    Partial<Pick<CallLayerProps, 'secret' | 'insecure'>> & { door?: GuestDoorSlot | null },
) {
  return (
    <>
      {props.incoming && (
        <IncomingCallDialog
          from={props.incoming.from}
          video={props.incoming.video}
          onAccept={props.accept}
          onAcceptVideo={props.acceptVideo}
          onDecline={props.decline}
        />
      )}
      {props.call && (
        <Suspense
          fallback={
            // The overlay shows nothing until the room's token and url exist; neither does its fallback.
            props.call.token && props.call.url ? (
              <div className="call-backdrop">
                <p className="call-loading" role="status">
                  Подключаемся…
                </p>
              </div>
            ) : null
          }
        >
          {props.secret ? (
            <LazySecretCallOverlay
              {...props.call}
              secret={props.secret}
              door={props.door}
              onEnd={props.end}
              onFailed={props.fail}
            />
          ) : (
            <LazyCallOverlay {...props.call} door={props.door} onEnd={props.end} onFailed={props.fail} />
          )}
        </Suspense>
      )}
      {props.insecure ? (
        <CallNotice text={<InsecureText topic="calls" page={props.insecure} />} onDismiss={props.dismissNotice} />
      ) : (
        props.notice && <CallNotice text={props.notice} onDismiss={props.dismissNotice} />
      )}
    </>
  );
}

export function CallNotice({ text, onDismiss }: { text: ReactNode; onDismiss: () => void }) {
  return (
    <div className="call-notice" role="status">
      <span>{text}</span>
      <button type="button" className="call-notice-close" aria-label="Закрыть уведомление" onClick={onDismiss}>
        ×
      </button>
    </div>
  );
}
