// The camera and microphone check before knocking (docs/behaviour.md §10.40): LiveKit's own PreJoin with Russian
// labels, in the conference's chunk (livekit-client loads only here and in calls). The name goes to the page's actor.
import '@livekit/components-styles';
import { PreJoin } from '@livekit/components-react';

export interface GuestPrejoinProps {
  name: string;
  busy: boolean;
  onKnock: (name: string, video: boolean, audio: boolean) => void;
}

export default function GuestPrejoin(props: GuestPrejoinProps) {
  return (
    <div data-lk-theme="default" className="guest-prejoin" aria-busy={props.busy}>
      <PreJoin
        defaults={{ username: props.name, videoEnabled: true, audioEnabled: true }}
        persistUserChoices
        userLabel="Ваше имя"
        joinLabel="Попросить войти"
        micLabel="Микрофон"
        camLabel="Камера"
        // The page's actor checks the name and says what is wrong with it.
        onValidate={() => true}
        onSubmit={(v) => props.onKnock(v.username, v.videoEnabled, v.audioEnabled)}
      />
    </div>
  );
}
