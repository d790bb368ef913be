// The app's live regions for screen readers (docs/behaviour.md §10.48): one polite, one assertive, visually hidden,
// each rendering what the announcer actor last said. The actor decides what and when; a new text is a new
// paragraph, so the same words said twice are read twice. Mounted once by the signed-in layout, after the chat
// list's first paint.
import { useSelector } from '@xstate/react';
import { useOwnedActor } from '../app/useOwnedActor';
import type { Spoken } from '../../machines/conversation/announcer/announcer.protocol';

export function Announcer() {
  const announcer = useOwnedActor('announcer');
  const polite = useSelector(announcer, (s) => s?.context.polite);
  const assertive = useSelector(announcer, (s) => s?.context.assertive);
  return <LiveRegions polite={polite} assertive={assertive} />;
}

export function LiveRegions(props: { polite?: Spoken; assertive?: Spoken }) {
  return (
    <div className="sr-only">
      <div aria-live="polite" data-testid="announcer-polite">
        {props.polite?.text && <p key={props.polite.n}>{props.polite.text}</p>}
      </div>
      <div aria-live="assertive" data-testid="announcer-assertive">
        {props.assertive?.text && <p key={props.assertive.n}>{props.assertive.text}</p>}
      </div>
    </div>
  );
}
