// Chat folders («Папки», docs/behaviour.md §10.47) without zod: the limits and texts both the server's schemas
// (./api/folders.ts) and the settings dialog use, and the shape of a folder as the client holds it.

export const FOLDERS = {
  /** A folder's name, trimmed. */
  nameMax: 12,
  /** Folders per person. */
  max: 10,
  /** Chats named in one folder (included and excluded together). */
  chatsMax: 200,
} as const;

export const FOLDER_TEXTS = {
  name: `Название папки — от 1 до ${FOLDERS.nameMax} символов`,
  empty: 'Выберите чаты или хотя бы одно правило',
  tooMany: `Можно создать не больше ${FOLDERS.max} папок`,
  chats: `В папке может быть не больше ${FOLDERS.chatsMax} чатов`,
  notFound: 'Папка не найдена',
  order: 'Порядок должен назвать каждую папку один раз',
} as const;

/** Which chats a folder takes by rule; chosen rules combine (docs/behaviour.md §10.47). */
export interface FolderRules {
  /** Личные: one-to-one chats. */
  direct: boolean;
  /** Группы. */
  groups: boolean;
  /** Непрочитанные: only chats with something unread. */
  unread: boolean;
  /** Без звука: only muted chats. */
  muted: boolean;
}

export interface ChatFolderData {
  id: string;
  name: string;
  rules: FolderRules;
  /** Chats always in the folder, whatever the rules say. */
  includedIds: string[];
  /** Chats never in the folder. */
  excludedIds: string[];
}

/** What a folder is made of when it is created or changed. */
export type FolderDraft = Omit<ChatFolderData, 'id'>;

export const NO_RULES: FolderRules = { direct: false, groups: false, unread: false, muted: false };

/** What is wrong with a folder before it is sent (the server checks the same), or null. */
export function folderDraftError(draft: FolderDraft): string | null {
  const name = draft.name.trim();
  if (name.length < 1 || [...name].length > FOLDERS.nameMax) return FOLDER_TEXTS.name;
  if (draft.includedIds.length === 0 && !Object.values(draft.rules).some(Boolean)) return FOLDER_TEXTS.empty;
  return null;
}
