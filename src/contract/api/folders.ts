// Chat folders («Папки», server/folders/, docs/behaviour.md §10.47): one's own named filters of the chat list, shown
// as tabs above it on every device of the person.
// Each route's method and path are in ./folders.routes.ts; its schemas are joined to it here, by the same name.
import { z } from 'zod';
import { FOLDER_TEXTS, FOLDERS } from '../chat-folders';
import { Id, NUL_MESSAGE, noNul } from '../entities';
import { foldersRoutes } from './folders.routes';
import { Ok, withSchemas } from './with-schemas';

export const FolderRulesSchema = z.strictObject({
  direct: z.boolean(),
  groups: z.boolean(),
  unread: z.boolean(),
  muted: z.boolean(),
});
export const ChatFolder = z.object({
  id: Id,
  name: z.string(),
  rules: FolderRulesSchema,
  includedIds: z.array(Id),
  excludedIds: z.array(Id),
});
export type ChatFolder = z.infer<typeof ChatFolder>;

const FolderName = z
  .string()
  .refine(noNul, NUL_MESSAGE)
  .transform((s) => s.trim())
  .refine((s) => s.length >= 1 && [...s].length <= FOLDERS.nameMax, FOLDER_TEXTS.name);
const ChatIds = z.array(Id).max(FOLDERS.chatsMax, FOLDER_TEXTS.chats);

export const FolderBody = z
  .strictObject({
    name: FolderName,
    rules: FolderRulesSchema,
    includedIds: ChatIds,
    excludedIds: ChatIds.default([]),
  })
  .refine((b) => b.includedIds.length > 0 || Object.values(b.rules).some(Boolean), FOLDER_TEXTS.empty)
  .refine((b) => new Set([...b.includedIds, ...b.excludedIds]).size <= FOLDERS.chatsMax, FOLDER_TEXTS.chats);
export const FolderParams = z.strictObject({ id: Id });
export const FolderResponse = z.object({ folder: ChatFolder });
export const FoldersResponse = z.object({ folders: z.array(ChatFolder) });
export const ReorderFoldersBody = z.strictObject({ ids: z.array(Id).max(FOLDERS.max, FOLDER_TEXTS.order) });

/** The routes of ./folders.routes with their schemas. */
export const foldersApi = withSchemas(foldersRoutes, {
  folders: { response: FoldersResponse },
  createFolder: { body: FolderBody, response: FolderResponse },
  updateFolder: { params: FolderParams, body: FolderBody, response: FolderResponse },
  deleteFolder: { params: FolderParams, response: Ok },
  reorderFolders: { body: ReorderFoldersBody, response: FoldersResponse },
});
