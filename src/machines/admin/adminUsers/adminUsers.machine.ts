// «Пользователи» (protocol: adminUsers.protocol.ts): loads a page of accounts (a search replaces the list, «Показать
// ещё» appends the next page), then acts on one account at a time; deactivating and role changes are asked about
// first. The server's answer replaces that account's row; a refusal keeps the list and shows the server's words.
// A reset link stays shown until closed; «Копировать» puts it on the clipboard and says «Скопировано» for a moment.
import { assertEvent, assign, setup } from 'xstate';
import { failureMessage } from '../../../contract/failure';
import { TIMINGS } from '../../../contract/limits';
import { notWired } from '../../shared/not-wired';
import {
  ADMIN_TAGS,
  type AdminUser,
  type AdminUsersContext,
  type AdminUsersEffects,
  type AdminUsersEvent,
  CONFIRMED_ACTIONS,
  USER_ACTION_FAILED,
  type UserAction,
  USERS_FAILED,
} from './adminUsers.protocol';

export * from './adminUsers.protocol';

export const adminUsersMachine = setup({
  types: { context: {} as AdminUsersContext, events: {} as AdminUsersEvent },
  actors: {
    loadUsers: notWired('adminUsers.loadUsers') as AdminUsersEffects['loadUsers'],
    act: notWired('adminUsers.act') as AdminUsersEffects['act'],
    makeResetLink: notWired('adminUsers.makeResetLink') as AdminUsersEffects['makeResetLink'],
    copyLink: notWired('adminUsers.copyLink') as AdminUsersEffects['copyLink'],
  },
  guards: {
    hasMore: ({ context }) => context.nextCursor !== null,
    asksFirst: ({ event }) => {
      assertEvent(event, 'users.act');
      return CONFIRMED_ACTIONS.includes(event.action);
    },
    hasLink: ({ context }) => context.resetLink !== null,
  },
  actions: {
    takePending: assign({
      pending: ({ event }) => {
        assertEvent(event, 'users.act');
        return { userId: event.userId, action: event.action };
      },
      error: null,
    }),
    takeUser: assign({
      users: ({ context }, user: AdminUser) => context.users.map((u) => (u.id === user.id ? user : u)),
      pending: null,
    }),
    takeFailure: assign({
      pending: null,
      error: (_, p: { error: unknown }) => failureMessage(p.error, USER_ACTION_FAILED),
    }),
  },
  delays: { copiedNotice: TIMINGS.successMessageMs },
}).createMachine({
  id: 'adminUsers',
  context: { query: '', users: [], nextCursor: null, pending: null, resetLink: null, error: null },
  initial: 'loading',
  states: {
    loading: {
      tags: [ADMIN_TAGS.busy],
      invoke: {
        id: 'loadUsers',
        src: 'loadUsers',
        input: ({ context }) => ({ q: context.query, cursor: null }),
        onDone: {
          target: 'ready',
          actions: assign({
            users: ({ event }) => event.output.users,
            nextCursor: ({ event }) => event.output.nextCursor,
            error: null,
          }),
        },
        onError: {
          target: 'ready',
          actions: assign({
            users: [],
            nextCursor: null,
            error: ({ event }) => failureMessage(event.error, USERS_FAILED),
          }),
        },
      },
    },
    loadingMore: {
      tags: [ADMIN_TAGS.busy],
      invoke: {
        id: 'loadMore',
        src: 'loadUsers',
        input: ({ context }) => ({ q: context.query, cursor: context.nextCursor }),
        onDone: {
          target: 'ready',
          actions: assign({
            users: ({ context, event }) => [
              ...context.users,
              ...event.output.users.filter((u) => !context.users.some((k) => k.id === u.id)),
            ],
            nextCursor: ({ event }) => event.output.nextCursor,
          }),
        },
        onError: {
          target: 'ready',
          actions: assign({ error: ({ event }) => failureMessage(event.error, USERS_FAILED) }),
        },
      },
    },
    ready: {
      on: {
        'users.search': {
          target: 'loading',
          actions: assign({ query: ({ event }) => event.query.trim(), error: null }),
        },
        'users.reload': { target: 'loading', actions: assign({ error: null }) },
        'users.more': { guard: 'hasMore', target: 'loadingMore', actions: assign({ error: null }) },
        'users.act': [
          { guard: 'asksFirst', target: 'confirming', actions: 'takePending' },
          { target: 'acting', actions: 'takePending' },
        ],
        'users.resetLink': {
          target: 'linking',
          actions: assign({
            pending: ({ event }) => ({ userId: event.userId, action: 'resetLink' as const }),
            resetLink: null,
            error: null,
          }),
        },
        'users.copyLink': { guard: 'hasLink', target: 'copying' },
        'users.closeLink': { actions: assign({ resetLink: null }) },
      },
    },
    confirming: {
      tags: [ADMIN_TAGS.confirming],
      on: {
        'users.confirm': 'acting',
        'users.cancel': { target: 'ready', actions: assign({ pending: null }) },
      },
    },
    acting: {
      tags: [ADMIN_TAGS.busy],
      invoke: {
        id: 'act',
        src: 'act',
        input: ({ context }) => ({
          userId: context.pending?.userId ?? '',
          action: (context.pending?.action ?? 'endSessions') as UserAction,
        }),
        onDone: { target: 'ready', actions: { type: 'takeUser', params: ({ event }) => event.output } },
        onError: { target: 'ready', actions: { type: 'takeFailure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    linking: {
      tags: [ADMIN_TAGS.busy],
      invoke: {
        id: 'makeResetLink',
        src: 'makeResetLink',
        input: ({ context }) => ({ userId: context.pending?.userId ?? '' }),
        onDone: {
          target: 'ready',
          actions: assign({
            resetLink: ({ context, event }) => ({
              userId: context.pending?.userId ?? '',
              path: event.output.path,
              expiresAt: event.output.expiresAt,
            }),
            pending: null,
          }),
        },
        onError: { target: 'ready', actions: { type: 'takeFailure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    copying: {
      invoke: {
        id: 'copyLink',
        src: 'copyLink',
        input: ({ context }) => ({ path: context.resetLink?.path ?? '' }),
        onDone: 'copied',
        onError: 'ready',
      },
    },
    copied: {
      tags: [ADMIN_TAGS.copied],
      after: { copiedNotice: 'ready' },
      on: { 'users.closeLink': { target: 'ready', actions: assign({ resetLink: null }) } },
    },
  },
});
