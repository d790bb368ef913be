// Chat folders («Папки», server/folders/, docs/behaviour.md §10.47): each route's name, method and path, without zod
// (src/contract/routes.ts joins them: the browser's table); their schemas are in ./folders.ts.
import type { RouteTable } from './route-info';

export const foldersRoutes = {
  folders: { method: 'GET', path: '/folders', auth: true },
  createFolder: { method: 'POST', path: '/folders', auth: true },
  updateFolder: { method: 'PATCH', path: '/folders/:id', auth: true },
  deleteFolder: { method: 'DELETE', path: '/folders/:id', auth: true },
  reorderFolders: { method: 'POST', path: '/folders/order', auth: true },
} as const satisfies RouteTable;
