// «Изменить фото» in a group's «Информация» (owner and admins): the profile's crop editor, saving the group's picture.
// Its actor lives while the editor is open.
import { useState } from 'react';
import { useOwnedActor } from '../app/useOwnedActor';
import { AvatarEditor } from './AvatarEditor';
import { useAvatarEditor } from './useAvatarEditor';
import './profile.css';

export function GroupPicture(props: { conversationId: string }) {
  const [open, setOpen] = useState(false);
  return (
    <div className="info-picture">
      {open ? (
        <>
          <GroupPictureEditor conversationId={props.conversationId} />
          <button type="button" className="button ghost" onClick={() => setOpen(false)}>
            Закрыть
          </button>
        </>
      ) : (
        <button type="button" className="button ghost" onClick={() => setOpen(true)}>
          Изменить фото
        </button>
      )}
    </div>
  );
}

function GroupPictureEditor(props: { conversationId: string }) {
  const actor = useOwnedActor('groupAvatar', { conversationId: props.conversationId });
  return <AvatarEditor {...useAvatarEditor(actor)} />;
}
