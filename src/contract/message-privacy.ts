// «Кто может мне писать» (docs/behaviour.md §10.26): whom a person accepts a new direct chat from. Friends always may;
// a block refuses whatever the choice.
// No zod here: the client's views read the choices and texts.

export const MESSAGE_PRIVACY = ['everyone', 'groups', 'friends'] as const;
export type MessagePrivacy = (typeof MESSAGE_PRIVACY)[number];

export const isMessagePrivacy = (v: unknown): v is MessagePrivacy => MESSAGE_PRIVACY.includes(v as MessagePrivacy);

/** What a person who never chose has. */
export const DEFAULT_MESSAGE_PRIVACY: MessagePrivacy = 'groups';

/** The choices in Settings, in the order shown. */
export const MESSAGE_PRIVACY_LABELS: Record<MessagePrivacy, string> = {
  everyone: 'Все участники сервера',
  groups: 'Участники общих групп',
  friends: 'Только друзья',
};

/** The 403 of a new direct chat (or its first message) the other person's choice does not allow. */
export const MESSAGE_PRIVACY_REFUSALS: Record<Exclude<MessagePrivacy, 'everyone'>, string> = {
  groups: 'Пользователь принимает сообщения только от друзей и участников общих групп',
  friends: 'Пользователь принимает сообщения только от друзей',
};

/** `@все` in a group's message mentions every member (docs/behaviour.md §10.26). */
export const MENTION_EVERYONE = '@все';
/** Above this many members only the owner and admins may use `@все`. */
export const MENTION_EVERYONE_FREE_UP_TO = 20;

/** Whether someone of `role` may call everyone with `@все` in a group of `memberCount` (the client offers it so). */
export const mayMentionEveryone = (memberCount: number, role: 'OWNER' | 'ADMIN' | 'MEMBER' | undefined): boolean =>
  memberCount <= MENTION_EVERYONE_FREE_UP_TO || role === 'OWNER' || role === 'ADMIN';

/** Whether a text has `@все` as a word of its own (not «@всем», not «a@все»). */
export const mentionsEveryone = (text: string): boolean => /(^|[^\p{L}\p{N}_@])@все(?![\p{L}\p{N}_])/u.test(text);
