// The incoming-call dialog, the call overlay and the notice of a call that ended by itself, mounted once in the
// shared layout (owned by the calls feature). Styles: src/styles/calls.css.
import '../../styles/calls.css';
import { CallOverlay } from './CallOverlay';
import { IncomingCallDialog } from './IncomingCallDialog';
import { useCallLayer } from './useCallLayer';

export function CallLayer() {
  return <CallLayerView {...useCallLayer()} />;
}

export function CallLayerView(props: ReturnType<typeof useCallLayer>) {
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
      {props.call && <CallOverlay {...props.call} onEnd={props.end} onFailed={props.fail} />}
      {props.notice && <CallNotice text={props.notice} onDismiss={props.dismissNotice} />}
    </>
  );
}

export function CallNotice({ text, onDismiss }: { text: string; onDismiss: () => void }) {
  return (
    <div className="call-notice" role="status">
      <span>{text}</span>
      <button type="button" className="call-notice-close" aria-label="Закрыть уведомление" onClick={onDismiss}>
        ×
      </button>
    </div>
  );
}
