// The recorder panel is fetched when the microphone button is first pressed (or hovered), not with the chats page.
import { lazyView } from '../../shared/lazy-view';
import type { VoiceRecorderProps } from './VoiceRecorder';

export const LazyVoiceRecorder = lazyView<VoiceRecorderProps>(() =>
  import('./VoiceRecorder').then((m) => m.VoiceRecorder),
);
