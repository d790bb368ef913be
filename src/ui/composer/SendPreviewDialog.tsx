// The preview before sending pictures and files (docs/behaviour.md §10.19): thumbnails in the order they will go, ↑/↓
// to reorder, × to drop one, «Подпись» and «Отправить».
import { useEffect, useMemo } from 'react';
import { LIMITS } from '../../contract/limits';
import { Modal } from '../shared/Modal';
import type { SendPreviewView } from './useSendPreview';
import './composer.css';

export function SendPreviewDialog(props: { preview: SendPreviewView; onSend(): void }) {
  const { preview } = props;
  const urls = useMemo(
    () => preview.files.map((f) => (f.type.startsWith('image/') ? URL.createObjectURL(f) : null)),
    [preview.files],
  );
  useEffect(
    () => () => {
      for (const u of urls) if (u) URL.revokeObjectURL(u);
    },
    [urls],
  );
  const images = preview.files.every((f) => f.type.startsWith('image/'));
  const n = preview.files.length;
  const title = images
    ? n > 1
      ? `Отправить изображения (${n})`
      : 'Отправить изображение'
    : n > 1
      ? `Отправить файлы (${n})`
      : 'Отправить файл';
  return (
    <Modal title={title} onClose={preview.cancel} className="send-preview">
      <ol className="send-preview-list" aria-label="Файлы">
        {preview.files.map((f, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: two files may share a name; the position is what is shown
          <li key={`${f.name}-${i}`} className="send-preview-item">
            {urls[i] ? (
              <img src={urls[i] ?? ''} alt={f.name ?? 'Изображение'} />
            ) : (
              <span className="send-preview-file">Файл: {f.name}</span>
            )}
            <div className="send-preview-tools">
              <button
                type="button"
                className="icon-button small"
                aria-label="Раньше"
                disabled={i === 0}
                onClick={() => preview.move(i, -1)}
              >
                ↑
              </button>
              <button
                type="button"
                className="icon-button small"
                aria-label="Позже"
                disabled={i === n - 1}
                onClick={() => preview.move(i, 1)}
              >
                ↓
              </button>
              <button type="button" className="icon-button small" aria-label="Убрать" onClick={() => preview.remove(i)}>
                ×
              </button>
            </div>
          </li>
        ))}
      </ol>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          props.onSend();
        }}
      >
        <input
          className="input send-preview-caption"
          placeholder="Подпись"
          aria-label="Подпись"
          maxLength={LIMITS.messageTextMax}
          value={preview.caption}
          onChange={(e) => preview.setCaption(e.target.value)}
        />
        <div className="modal-actions">
          <button type="button" className="button ghost" onClick={preview.cancel}>
            Отмена
          </button>
          <button type="submit" className="button">
            Отправить
          </button>
        </div>
      </form>
    </Modal>
  );
}
