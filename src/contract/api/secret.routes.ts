// Secret chats (server/secret/, the client's secretChats): each route's name, method and path, without zod
// (src/contract/routes.ts joins them: the browser's table); their schemas are in ./secret.ts.
import type { RouteTable } from './route-info';

export const secretRoutes = {
  secretRegisterDevice: { method: 'POST', path: '/secret/devices', auth: true },
  secretKeyPackages: { method: 'POST', path: '/secret/key-packages', auth: true },
  secretClaim: { method: 'POST', path: '/secret/key-packages/claim', auth: true },
  secretCreate: { method: 'POST', path: '/secret/conversations', auth: true },
  secretCommit: { method: 'POST', path: '/secret/commits', auth: true },
  secretLog: { method: 'GET', path: '/secret/conversations/:id/log', auth: true },
  secretState: { method: 'GET', path: '/secret/state', auth: true },
  secretRejoin: { method: 'POST', path: '/secret/rejoin', auth: true },
  secretSend: { method: 'POST', path: '/secret/send', auth: true },
  secretBackup: { method: 'GET', path: '/secret/backup', auth: true },
  secretBackupKey: { method: 'POST', path: '/secret/backup/key', auth: true },
  secretBackupUpload: { method: 'POST', path: '/secret/backup', auth: true },
  secretBackupChunks: { method: 'GET', path: '/secret/backup/chunks', auth: true },
  secretBackupDelete: { method: 'DELETE', path: '/secret/backup', auth: true },
  secretIdentities: { method: 'GET', path: '/secret/identities', auth: true },
  secretSetIdentity: { method: 'POST', path: '/secret/identity', auth: true },
  secretApprovalRequest: { method: 'POST', path: '/secret/approvals', auth: true },
  secretApprovals: { method: 'GET', path: '/secret/approvals', auth: true },
  secretApproval: { method: 'GET', path: '/secret/approvals/:id', auth: true },
  secretApprovalDecline: { method: 'POST', path: '/secret/approvals/:id/decline', auth: true },
  secretApprovalAnswer: { method: 'POST', path: '/secret/approvals/:id', auth: true },
} as const satisfies RouteTable;

/**
 * A secret chat's encrypted attachment: POST /api/secret/uploads?conversationId= takes the ciphertext itself
 * (application/octet-stream), GET /api/secret/uploads/:key gives it back to the chat's members (bearer token).
 * Raw bytes both ways, so not in the JSON route table; the schemas are `secretUploadRoute` (./secret.ts).
 */
export const secretUploadEndpoint = { method: 'POST', path: '/secret/uploads', query: 'conversationId' } as const;
export const secretDownloadEndpoint = { method: 'GET', path: '/secret/uploads/:key' } as const;
/** An encrypted attachment's url as the server answers it; a device fetches (with its token) no other. */
export const SECRET_UPLOAD_URL = /^\/api\/secret\/uploads\/([0-9a-f]{32})$/;
