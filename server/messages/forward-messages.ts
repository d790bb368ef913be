// «Переслать» (docs/behaviour.md §10.19): copies of messages, sent by the forwarder to each chosen chat in the
// originals' order, each carrying its first author (forwardedFrom); attachments and voice notes point at the same
// uploads (nothing is uploaded again). The forwarder must be a member of every source and target (404 otherwise,
// nothing written); blocks between two people refuse the copy as they refuse a send.
import type { Message } from '../../src/contract/entities';
import { memberIds, membersFor } from '../conversations/membership';
import { isSecret, SECRET_IS_ENCRYPTED } from '../conversations/secret-flag';
import { badRequest, notFound } from '../http/errors';
import { MESSAGE_NOT_FOUND } from './delete-message';
import { newMessageId } from './message-id';
import { type AttachedUpload, freshMessage } from './message-view';
import type { MessageWriter } from './message-writer';
import { publishNew, quietMembers, refuseBlocked, type SendDeps } from './send-message';

const SECRET_NOT_FORWARDED = 'Сообщения секретного чата переслать нельзя';

export function createForwarder(deps: SendDeps & { writer: MessageWriter }) {
  const { db, writer } = deps;

  /** The originals in order, with what their copies need: attachments, voice, first author. */
  async function originals(userId: string, ids: readonly string[]) {
    const rows = await db
      .selectFrom('messages')
      .selectAll()
      .where('id', 'in', [...ids])
      .where('deleted_at', 'is', null)
      .orderBy('seq')
      .execute();
    if (rows.length !== ids.length) throw notFound(MESSAGE_NOT_FOUND);
    for (const c of new Set(rows.map((r) => r.conversation_id))) {
      if (!(await memberIds(db, c)).includes(userId)) throw notFound(MESSAGE_NOT_FOUND);
    }
    if (rows.some((r) => r.type === 'CALL' || r.type === 'SYSTEM'))
      throw badRequest('Звонки и события группы переслать нельзя');
    // A poll's votes belong to its chat (docs/behaviour.md §10.33 Polls).
    if (rows.some((r) => r.type === 'POLL')) throw badRequest('Опрос переслать нельзя');
    // A secret chat's ciphertext means nothing anywhere else (its client forwards the text it decrypted).
    if (rows.some((r) => r.type === 'ENCRYPTED')) throw badRequest(SECRET_NOT_FORWARDED);
    const withFiles = rows.filter((r) => r.type !== 'TEXT').map((r) => r.id);
    const [files, voices, authors] = await Promise.all([
      withFiles.length
        ? db
            .selectFrom('message_attachments as a')
            .innerJoin('uploads as u', 'u.id', 'a.upload_id')
            .select([
              'a.message_id',
              'a.position',
              'u.id',
              'u.url',
              'u.kind',
              'u.original_name',
              'u.size',
              'u.width',
              'u.height',
            ])
            .where('a.message_id', 'in', withFiles)
            .orderBy('a.message_id')
            .orderBy('a.position')
            .execute()
        : [],
      db
        .selectFrom('voice_notes')
        .selectAll()
        .where('message_id', 'in', withFiles.length ? withFiles : [''])
        .execute(),
      db
        .selectFrom('users')
        .select(['id', 'display_name'])
        .where('id', 'in', [...new Set(rows.map((r) => r.sender_id))])
        .execute(),
    ]);
    const name = new Map(authors.map((a) => [a.id, a.display_name]));
    return rows.map((r) => ({
      row: r,
      uploads: files.filter((f) => f.message_id === r.id) as (AttachedUpload & { id: string })[],
      voice: voices.find((v) => v.message_id === r.id),
      // A copy of a copy keeps the first author.
      from: r.forwarded_from_user_id
        ? { userId: r.forwarded_from_user_id, name: r.forwarded_from_name ?? '' }
        : { userId: r.sender_id, name: name.get(r.sender_id) ?? 'Удалённый аккаунт' },
    }));
  }

  return async function forward(
    userId: string,
    messageIds: readonly string[],
    conversationIds: readonly string[],
  ): Promise<{ messages: Message[] }> {
    const sources = await originals(userId, [...new Set(messageIds)]);
    const targets = [...new Set(conversationIds)];
    const members = new Map<string, readonly string[]>();
    for (const id of targets) {
      const list = await membersFor(db, id, userId);
      if (await isSecret(db, id)) throw badRequest(SECRET_IS_ENCRYPTED);
      await refuseBlocked(deps, id, userId, list);
      members.set(id, list);
    }
    // Queued together, the copies share the writer's transactions and keep their order (the queue's).
    const copies: { message: Message; target: string; written: Promise<unknown> }[] = [];
    for (const target of targets) {
      for (const s of sources) {
        const voice = s.voice
          ? { durationMs: Number(s.voice.duration_ms), waveform: s.voice.waveform.split(',').map(Number) }
          : undefined;
        const row = {
          id: newMessageId(),
          conversation_id: target,
          sender_id: userId,
          type: s.row.type,
          content: s.row.content,
          reply_to_id: null,
          client_message_id: null,
          created_at: new Date().toISOString(),
          deleted_at: null,
          forwarded_from_user_id: s.from.userId,
          forwarded_from_name: s.from.name,
          // The copy keeps the original's formatting (checked when it was written).
          entities: s.row.entities ?? null,
        };
        const written = writer.write({ row, uploadIds: s.uploads.map((u) => u.id), voice });
        copies.push({ message: freshMessage(row, null, s.uploads, { voice: voice ?? null }), target, written });
      }
    }
    await Promise.all(copies.map((c) => c.written));
    const muted = new Map<string, readonly string[]>();
    for (const target of targets) muted.set(target, await quietMembers(db, target));
    for (const c of copies) publishNew(deps, c.message, members.get(c.target) ?? [], muted.get(c.target) ?? []);
    return { messages: copies.map((c) => c.message) };
  };
}
