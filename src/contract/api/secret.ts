// Secret chats (server/secret/, the client's secretChats): devices, key packages, commits, the log, sending,
// the key backup and identities; the schemas are in src/contract/secret*.ts.
// Each route's method and path are in ./secret.routes.ts; its schemas are joined to it here, by the same name.
import {
  ClaimBody,
  ClaimResponse,
  CommitBody,
  CommitResponse,
  CreateSecretBody,
  DeviceResponse,
  KeyPackagesBody,
  KeyPackagesLeftResponse,
  LogParams,
  LogQuery,
  LogResponse,
  RegisterDeviceBody,
  RejoinBody,
  RejoinResponse,
  SecretSendBody,
  SecretSendResponse,
  SecretUploadQuery,
  SecretUploadResponse,
  StateQuery,
  StateResponse,
} from '../secret';
import {
  BackupChunkBody,
  BackupChunkResponse,
  BackupChunksQuery,
  BackupChunksResponse,
  BackupInfoResponse,
  BackupKeyBody,
} from '../secret-backup';
import {
  ApprovalAnswerBody,
  ApprovalParams,
  ApprovalRequestBody,
  ApprovalResponse,
  ApprovalsResponse,
  IdentitiesQuery,
  IdentitiesResponse,
  IdentityResponse,
  SetIdentityBody,
} from '../secret-identity';
import { ConversationResponse } from './conversations';
import { secretRoutes, secretUploadEndpoint } from './secret.routes';
import { Ok, withSchemas } from './with-schemas';

/**
 * POST /api/secret/uploads (raw ciphertext, see ./secret.routes): answer 201; 413 past the file limit plus the GCM
 * tag.
 */
export const secretUploadRoute = {
  ...secretUploadEndpoint,
  query: SecretUploadQuery,
  response: SecretUploadResponse,
} as const;

/** The routes of ./secret.routes with their schemas. */
export const secretApi = withSchemas(secretRoutes, {
  secretRegisterDevice: { body: RegisterDeviceBody, response: DeviceResponse },
  secretKeyPackages: { body: KeyPackagesBody, response: KeyPackagesLeftResponse },
  secretClaim: { body: ClaimBody, response: ClaimResponse },
  secretCreate: { body: CreateSecretBody, response: ConversationResponse },
  secretCommit: { body: CommitBody, response: CommitResponse },
  secretLog: { params: LogParams, query: LogQuery, response: LogResponse },
  secretState: { query: StateQuery, response: StateResponse },
  secretRejoin: { body: RejoinBody, response: RejoinResponse },
  secretSend: { body: SecretSendBody, response: SecretSendResponse },
  secretBackup: { response: BackupInfoResponse },
  secretBackupKey: { body: BackupKeyBody, response: BackupInfoResponse },
  secretBackupUpload: { body: BackupChunkBody, response: BackupChunkResponse },
  secretBackupChunks: { query: BackupChunksQuery, response: BackupChunksResponse },
  secretBackupDelete: { response: Ok },
  secretIdentities: { query: IdentitiesQuery, response: IdentitiesResponse },
  secretSetIdentity: { body: SetIdentityBody, response: IdentityResponse },
  secretApprovalRequest: { body: ApprovalRequestBody, response: ApprovalResponse },
  secretApprovals: { response: ApprovalsResponse },
  secretApproval: { params: ApprovalParams, response: ApprovalResponse },
  secretApprovalDecline: { params: ApprovalParams, response: ApprovalResponse },
  secretApprovalAnswer: { params: ApprovalParams, body: ApprovalAnswerBody, response: ApprovalResponse },
});
