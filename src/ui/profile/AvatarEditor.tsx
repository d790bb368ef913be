// The avatar part of the profile dialog (docs/behaviour.md §2, §5): a drop area that also opens the file picker
// (images only), then the image under a round 220 px window in a 300 px high editor — dragged (or moved with
// the arrow keys) and scaled with 'Масштаб' 0.5–2 — with 'Отмена' and 'Загрузить'; 'Готово' after success.
import { type DragEvent, useId, useState } from 'react';
import Cropper from 'react-easy-crop';
import { ZOOM_MAX, ZOOM_MIN, ZOOM_STEP } from '../../machines/profile/avatar/avatar.protocol';
import type { AvatarEditorView } from './useAvatarEditor';
import './profile.css';

export const CROP_WINDOW_PX = 220;

function DropArea({ onFile, disabled }: { onFile: (file: File) => void; disabled: boolean }) {
  const [over, setOver] = useState(false);
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    const file = e.dataTransfer.files[0];
    if (file) onFile(file);
  };
  return (
    <label
      className={`drop-area ${over ? 'over' : ''}`}
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
    >
      <input
        type="file"
        accept="image/*"
        className="visually-hidden"
        disabled={disabled}
        onChange={(e) => {
          const file = e.target.files?.[0];
          if (file) onFile(file);
          e.target.value = ''; // the same file may be chosen again
        }}
      />
      <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
        <path
          d="M12 16V4m0 0-4 4m4-4 4 4M4 16v3a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-3"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.8"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      <span>Перетащите файл сюда или нажмите, чтобы выбрать</span>
    </label>
  );
}

export function AvatarEditor(props: AvatarEditorView) {
  const zoomId = useId();
  const editing = props.stage === 'editing' || props.stage === 'busy';
  const busy = props.stage === 'busy';
  return (
    <div className="avatar-editor">
      {!editing && <DropArea onFile={props.onFile} disabled={props.stage === 'reading'} />}
      {editing && props.source && (
        <>
          <div className="crop-stage">
            <Cropper
              image={props.source}
              crop={props.crop}
              zoom={props.zoom}
              aspect={1}
              // At 100 % the picture covers the stage, so its shorter side is never under the 220 px window (in the
              // narrow «Информация» a contained wide picture was lower than the window: empty bands in the crop).
              objectFit="cover"
              minZoom={ZOOM_MIN}
              maxZoom={ZOOM_MAX}
              cropShape="round"
              cropSize={{ width: CROP_WINDOW_PX, height: CROP_WINDOW_PX }}
              showGrid={false}
              restrictPosition={false}
              onCropChange={props.onMove}
              onZoomChange={props.onZoom}
              onCropComplete={(_, pixels) => props.onArea(pixels)}
              cropperProps={{
                role: 'group',
                'aria-label': 'Кадр аватара: перетащите изображение или двигайте стрелками',
              }}
            />
          </div>
          <div className="zoom-row">
            <label htmlFor={zoomId}>Масштаб</label>
            <input
              id={zoomId}
              type="range"
              min={ZOOM_MIN}
              max={ZOOM_MAX}
              step={ZOOM_STEP}
              value={props.zoom}
              disabled={busy}
              onChange={(e) => props.onZoom(Number(e.target.value))}
            />
          </div>
          <div className="dialog-actions">
            <button type="button" className="button ghost" disabled={busy} onClick={props.onCancel}>
              Отмена
            </button>
            <button type="button" className="button primary" disabled={busy} onClick={props.onUpload}>
              {busy ? 'Загрузка...' : 'Загрузить'}
            </button>
          </div>
        </>
      )}
      <div aria-live="polite" className="avatar-outcome">
        {props.stage === 'done' && (
          <p className="inline-note" role="status">
            Готово
          </p>
        )}
        {props.error && (
          <p className="inline-error" role="alert">
            {props.error}
          </p>
        )}
      </div>
    </div>
  );
}
