// The views of the composer feature that other features and the app's routes render.
export { Composer } from './Composer';
export type { ComposerProps } from './Composer';
export { useRecorderPanel } from './voice/useRecorderPanel';
export { type SendPreviewView, useSendPreview } from './useSendPreview';
export { SendPreviewDialog } from './SendPreviewDialog';
export { type MentionPickerView, useMentionPicker } from './useMentionPicker';
