// The selected conversation's pane on the chats page: the messages and composer (their own chunk), the message
// actions (selection, removal with «Отменить», forward, info, report, reactions), search within the conversation
// and «Информация». A chunk of its own, fetched with the conversation's views (src/ui/chats/ChatsPage.tsx),
// so none of it is in the list's first bundle.

import { type ReactNode, Suspense, useCallback, useMemo, useState } from 'react';
import { directPeer, displayName } from '../../contract/format';
import type { ScheduleDraft } from '../../machines/scheduled/index';
import { useBlocking } from '../blocking/index';
import { GroupCallBar, useGroupCallBar } from '../calls/deferred';
import {
  CopyTextContext,
  EditHistoryContext,
  PreviewCardsContext,
  useConversationPane,
} from '../conversation/deferred';
import { LazyConversationView } from '../conversation/index';
import { LazyConversationInfo, useConversationInfo } from '../conversationInfo/index';
import { InviteLinksSection } from '../groupInvites/deferred';
import { CallLinksSection } from '../guests/deferred';
import {
  LazyEditHistoryDialog,
  LazyForwardDialog,
  LazyMessageInfoDialog,
  RemovalPrompt,
  SelectionBar,
  useMessageActions,
} from '../messageActions/index';
import { LazyGroupPicture } from '../profile/deferred';
import { LazyReportDialog, LazyReportPersonButton } from '../reports/deferred';
import { LazyScheduledDialog } from '../scheduled/index';
import { useConversationSearch, useListFoundThread } from '../search/deferred';
import { LazyConversationSearchBar } from '../search/deferred';
import { LazySecretChatNotice, LazySecretVerifyDialog, useSecretNotices } from '../secretChats/deferred';
import { LazyEmojiPicker } from '../shared/lazy-emoji-picker';
import { PollCardsContext, PollComposerSection, usePollVotes } from '../polls/index';
import { LazyThreadPanel, useThreadPanel } from '../threads/deferred';
import type { useChatActions } from './useChatActions';
import type { useChatsPage } from './useChatsPage';
import { useInfoPanel } from './useInfoPanel';
import { useThreadOpen } from './useThreadOpen';
import './conversation-pane.css';
import '../shared/toast.css';

export type ConversationPaneProps = ReturnType<typeof useChatsPage> & {
  conversation: NonNullable<ReturnType<typeof useChatsPage>['conversation']>;
  conversationId: string;
  me: string;
  menu: ReturnType<typeof useChatActions>;
};

/** The pane, its messages' link cards reachable from their bubbles (usePreviewCard). */
export function ConversationPane(props: ConversationPaneProps) {
  return (
    <PreviewCardsContext.Provider value={props.conversation}>
      <ConversationPaneBody {...props} />
    </PreviewCardsContext.Provider>
  );
}

function ConversationPaneBody(props: ConversationPaneProps) {
  const actions = useMessageActions(props.conversationId);
  const names = useMemo(
    () =>
      new Map(
        (props.selectedEntry?.conversation.participants ?? []).map((p) => [p.user.id, displayName(p.user)] as const),
      ),
    [props.selectedEntry],
  );
  const secret = props.selectedEntry?.conversation.secret === true;
  const nameOf = useMemo(() => Object.fromEntries(names), [names]);
  // A secret chat's «<Имя>: новое устройство» lines, kept by this device.
  const lines = useSecretNotices(props.conversationId, names);
  const [verifying, setVerifying] = useState(false);
  const closeVerify = useCallback(() => setVerifying(false), []);
  const thread = useThreadOpen();
  // «Запланированные» open: with a draft to schedule at once, or the list alone (null).
  const [scheduling, setScheduling] = useState<{ start: ScheduleDraft | null } | null>(null);
  const closeScheduling = useCallback(() => setScheduling(null), []);
  const onAction = actions.onAction;
  const showThread = thread.show;
  const act = useCallback<typeof onAction>(
    (action, row) => (action === 'thread' ? showThread(row.id) : onAction(action, row)),
    [onAction, showThread],
  );
  const view = useConversationPane({
    lines: secret ? lines : undefined,
    conversation: props.conversation,
    composer: props.composer,
    entry: props.selectedEntry,
    conversationId: props.conversationId,
    me: props.me,
    now: props.now,
    onCall: props.call,
    onAction: act,
    onMoreReactions: actions.onMoreReactions,
    onSendLater: secret ? undefined : (text) => setScheduling({ start: { kind: 'message', content: text.trim() } }),
  });
  // «Опрос» from «Прикрепить» (not in a secret chat: the server could not count encrypted votes); the cards' actor.
  const [pollOpen, setPollOpen] = useState(false);
  const closePoll = useCallback(() => setPollOpen(false), []);
  const pollVotes = usePollVotes();
  const sel = actions.selection;
  const anyOthers = view.rows.some((r) => sel.ids.has(r.id) && !r.own);
  // A search hit that is a thread reply (here or in the list's search) opens the thread at it.
  const search = useConversationSearch(props.conversationId, showThread);
  useListFoundThread(props.conversationId, showThread);
  const { open: info, show: showInfo, close: closeInfo } = useInfoPanel();
  // Blocking the other person of a direct chat: from «Информация» or the notice that replaces the composer.
  const blocking = useBlocking();
  const c = props.selectedEntry?.conversation;
  const peer = c ? directPeer(c, props.me) : null;
  const blocked = props.selectedEntry?.blockedByMe === true;
  const callBar = useGroupCallBar(props.selectedEntry);
  const block = peer
    ? {
        blocked,
        busy: blocking.busy,
        onBlock: () => blocking.block(peer.id),
        onUnblock: () => blocking.unblock(peer.id),
      }
    : undefined;
  return (
    <div className="conv-with-info">
      <CopyTextContext.Provider value={sel.copyText}>
        <EditHistoryContext.Provider value={actions.openEdits}>
          <PollCardsContext.Provider value={pollVotes}>
            <LazyConversationView
              {...view}
              composer={secret ? view.composer : { ...view.composer, onPoll: () => setPollOpen(true) }}
              onSearch={search.show}
              onJumpToDate={search.showDate}
              onScheduled={secret ? undefined : () => setScheduling({ start: null })}
              onInfo={showInfo}
              onVerify={secret ? () => setVerifying(true) : undefined}
              callBar={callBar && <GroupCallBar {...callBar} />}
              blocked={block && blocked ? { busy: block.busy, onUnblock: block.onUnblock } : null}
              searchBar={search.open ? <LazyConversationSearchBar {...search.bar} /> : null}
              selection={sel.selecting ? { ids: sel.ids, onToggle: sel.toggle } : null}
              selectionBar={
                sel.selecting ? (
                  <SelectionBar
                    count={sel.count}
                    deleteLabel={anyOthers ? 'Скрыть у себя' : 'Удалить'}
                    onForward={() => sel.forward(view.rows)}
                    onCopy={() => sel.copy(view.rows)}
                    onDelete={() => sel.remove(view.rows)}
                    onCancel={sel.clear}
                  />
                ) : null
              }
              notice={
                props.selectedEntry?.conversation.secret ? (
                  <Suspense fallback={null}>
                    <LazySecretChatNotice conversationId={props.conversationId} names={nameOf} />
                  </Suspense>
                ) : null
              }
              overlays={
                <>
                  <RemovalPrompt {...actions.removal} />
                  {sel.copied && (
                    <div className="toast" role="status">
                      Скопировано
                    </div>
                  )}
                  {sel.copyError && (
                    <div className="toast" role="alert">
                      {sel.copyError}
                    </div>
                  )}
                  {verifying && (
                    <LazySecretVerifyDialog
                      userId={props.me}
                      conversationId={props.conversationId}
                      names={names}
                      onClose={closeVerify}
                    />
                  )}
                  {actions.forwarding && (
                    <LazyForwardDialog
                      me={props.me}
                      messageIds={actions.forwarding}
                      chats={props.tiles
                        .filter((t) => !t.secret)
                        .map((t) => ({ id: t.id, title: t.title, avatar: t.avatar }))}
                      entries={props.entries}
                      onClose={actions.closeForward}
                    />
                  )}
                  {actions.infoFor && (
                    <LazyMessageInfoDialog
                      messageId={actions.infoFor}
                      names={names}
                      isGroup={props.selectedEntry?.conversation.isGroup ?? false}
                      onClose={actions.closeInfo}
                    />
                  )}
                  {actions.editsOf && (
                    <LazyEditHistoryDialog
                      messageId={actions.editsOf}
                      text={view.rows.find((r) => r.id === actions.editsOf)?.text ?? null}
                      onClose={actions.closeEdits}
                    />
                  )}
                  {scheduling && (
                    <LazyScheduledDialog
                      conversationId={props.conversationId}
                      start={scheduling.start}
                      // A text scheduled from the composer leaves it.
                      onSaved={scheduling.start?.kind === 'message' ? () => view.composer.onText('') : undefined}
                      onClose={closeScheduling}
                    />
                  )}
                  {actions.remindingOf && (
                    <LazyScheduledDialog
                      conversationId={props.conversationId}
                      start={{ kind: 'reminder', messageId: actions.remindingOf.id, content: actions.remindingOf.text }}
                      onClose={actions.closeRemind}
                    />
                  )}
                  {actions.reportingOn && (
                    <LazyReportDialog target={{ messageId: actions.reportingOn }} onClose={actions.closeReport} />
                  )}
                  {pollOpen && <PollComposerSection conversationId={props.conversationId} onClose={closePoll} />}
                  {actions.reactingTo && (
                    <LazyEmojiPicker
                      label="Реакция"
                      onPick={(emoji) => {
                        if (actions.reactingTo) view.onReact(actions.reactingTo, emoji);
                        actions.closeReacting();
                      }}
                      onClose={actions.closeReacting}
                    />
                  )}
                </>
              }
            />
          </PollCardsContext.Provider>
          {thread.rootId && !info && (
            <ThreadSide
              key={thread.rootId}
              conversationId={props.conversationId}
              rootId={thread.rootId}
              found={thread.found}
              me={props.me}
              entry={props.selectedEntry}
              onClose={thread.close}
            />
          )}
          {info && (
            <InfoPanel
              {...props}
              onClose={closeInfo}
              block={block}
              verify={
                secret ? (
                  <button type="button" className="button ghost" onClick={() => setVerifying(true)}>
                    Проверить шифрование
                  </button>
                ) : undefined
              }
            />
          )}
        </EditHistoryContext.Provider>
      </CopyTextContext.Provider>
    </div>
  );
}

/** A thread's panel: its actor lives while this is mounted (one per thread: the key is the root). */
function ThreadSide(props: {
  conversationId: string;
  rootId: string;
  found: string | null;
  me: string;
  entry: ConversationPaneProps['selectedEntry'];
  onClose(): void;
}) {
  const people = useMemo(
    () => new Map((props.entry?.conversation.participants ?? []).map((p) => [p.user.id, p.user] as const)),
    [props.entry],
  );
  const panel = useThreadPanel({
    conversationId: props.conversationId,
    rootId: props.rootId,
    me: props.me,
    people,
    onClose: props.onClose,
    found: props.found,
  });
  return <LazyThreadPanel {...panel} />;
}

/** «Информация»: its actor lives while this is mounted. */
function InfoPanel(
  props: ConversationPaneProps & {
    onClose(): void;
    block: Parameters<typeof useConversationInfo>[0]['block'];
    verify?: ReactNode;
  },
) {
  const c = props.selectedEntry?.conversation;
  const peer = c ? directPeer(c, props.me) : null;
  const info = useConversationInfo({
    conversationId: props.conversationId,
    entry: props.selectedEntry,
    me: props.me,
    now: props.now,
    onClose: props.onClose,
    block: props.block,
    chat: props.menu.run,
    invites: <InviteLinksSection conversationId={props.conversationId} />,
    callLinks: (who) => (
      <CallLinksSection key={props.conversationId} room={`conv-${props.conversationId}`} me={props.me} {...who} />
    ),
    picture: <LazyGroupPicture conversationId={props.conversationId} />,
    report: peer ? <LazyReportPersonButton userId={peer.id} /> : undefined,
    verify: props.verify,
  });
  return <LazyConversationInfo {...info} />;
}
