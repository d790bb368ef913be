// The attachments of a secret message (docs/secret-chats.md, "Files and voice messages"), decrypted on this device:
// a picture, a voice message in the same player as any other, or a file with its name and size that is decrypted
// and saved under its own name when asked. What does not decrypt says so.
import type { ComponentType } from 'react';
import type { SecretAttachment } from '../../machines/secretChats/secretChat/secretChat.protocol';
import { FILE_UNREADABLE, secretKindOf } from '../../machines/secretChats/secretChat/secretChat.protocol';
import { useSecretFile } from './useSecretFile';

/** The conversation's voice player, handed in by the bubble (this feature does not reach into that one's views). */
export type VoicePlayerView = ComponentType<{ url: string | null; durationMs: number; waveform: number[] }>;

const IMAGE_MAX_WIDTH = 320;

function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} Б`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} КБ`;
  return `${(bytes / (1024 * 1024)).toFixed(1).replace('.', ',')} МБ`;
}

function Unreadable() {
  return (
    <p className="msg-text msg-secret-note" role="alert">
      {FILE_UNREADABLE}
    </p>
  );
}

function SecretPicture({ a, onOpen }: { a: SecretAttachment; onOpen?: () => void }) {
  const { file } = useSecretFile(a, true);
  if (file.status === 'failed') return <Unreadable />;
  const picture = file.url && <img src={file.url} alt={a.name} style={{ maxWidth: IMAGE_MAX_WIDTH }} />;
  return (
    <div className="msg-images">
      {!picture ? (
        <p className="msg-text msg-secret-note">Расшифровывается…</p>
      ) : onOpen ? (
        // Opens in the conversation's lightbox, as a plain chat's picture does.
        <button type="button" className="msg-image" onClick={onOpen} aria-label={`Открыть изображение ${a.name}`}>
          {picture}
        </button>
      ) : (
        <span className="msg-image still">{picture}</span>
      )}
    </div>
  );
}

function SecretVoice({ a, Player }: { a: SecretAttachment; Player: VoicePlayerView }) {
  const { file } = useSecretFile(a, true);
  if (file.status === 'failed') return <Unreadable />;
  const voice = a.voice ?? { durationMs: 0, waveform: [] };
  return <Player url={file.url} durationMs={voice.durationMs} waveform={voice.waveform} />;
}

function SecretFile({ a }: { a: SecretAttachment }) {
  const { file, open } = useSecretFile(a, false);
  const save = async () => {
    const url = await open();
    if (!url) return;
    const link = document.createElement('a');
    link.href = url;
    link.download = a.name;
    link.click();
  };
  return (
    <>
      <button
        type="button"
        className="msg-file"
        onClick={() => void save()}
        disabled={file.status === 'opening'}
        aria-label={`Скачать файл ${a.name}, ${sizeText(a.size)}`}
      >
        <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
          <path
            d="M7 3h7l5 5v12a1 1 0 0 1-1 1H7a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1zm7 0v5h5"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.6"
            strokeLinejoin="round"
          />
        </svg>
        <span>Файл: {a.name}</span> <span className="msg-file-size">{sizeText(a.size)}</span>
      </button>
      {file.status === 'failed' && <Unreadable />}
    </>
  );
}

export function SecretAttachments(props: {
  attachments: SecretAttachment[];
  voicePlayer?: VoicePlayerView;
  /** Opens the message's `index`-th picture (counted among its pictures) in the lightbox. */
  onOpenImage?: (index: number) => void;
}) {
  let pictures = 0;
  return (
    <>
      {props.attachments.map((a) => {
        const kind = secretKindOf(a);
        if (kind === 'IMAGE') {
          const index = pictures++;
          const open = props.onOpenImage;
          return <SecretPicture key={a.url} a={a} onOpen={open && (() => open(index))} />;
        }
        if (kind === 'AUDIO' && props.voicePlayer) return <SecretVoice key={a.url} a={a} Player={props.voicePlayer} />;
        return <SecretFile key={a.url} a={a} />;
      })}
    </>
  );
}
