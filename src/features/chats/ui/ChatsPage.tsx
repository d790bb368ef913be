// The chats page (route '/', docs/behaviour.md §2): the list pane 'Чаты' with the footer tiles, and the message pane of the
// selected conversation, composed into the two-pane shell (sliding panels on narrow screens).
import { ChatActionPrompt, ChatList } from './ChatList';
import { ChatsFooter } from './ChatsFooter';
import { ChatsShell } from './ChatsShell';
import { LazyConversationView, NoConversation } from '../../conversation/ui/index';
import { useChatActions } from './useChatActions';
import { useChatsPage } from './useChatsPage';
import { useConversationPane } from '../../conversation/ui/index';
import { ListSearchField, listSearchResults } from '../../search/ui/index';
import { useNameSearch, useSearch } from '../../search/ui/index';
import { LazyConversationSearchBar } from '../../search/ui/index';
import { useConversationSearch } from '../../search/ui/index';
import { LazyConversationInfo, useConversationInfo } from '../../conversationInfo/ui/index';
import { useCallback, useEffect, useState } from 'react';
import { useBlocking } from '../../blocking/ui/index';
import { InviteLinksSection } from '../../groupInvites/ui/index';
import { LazyGroupPicture } from '../../profile/ui/index';
import { LazyReportDialog, LazyReportPersonButton } from '../../reports/ui/index';
import { directPeer, displayName } from '../../../shared/format';
import {
  LazyForwardDialog,
  LazyMessageInfoDialog,
  RemovalPrompt,
  SelectionBar,
  useMessageActions,
} from '../../messageActions/ui/index';
import { LazyEmojiPicker } from '../../../shared/ui/lazy-emoji-picker';
import { serviceWorkerSettled } from '../../../shared/ui/service-worker-settled';
import '../../../styles/chats.css';

/** The conversation's views are a chunk of their own, fetched when one is open or the list is touched. */
const preloadPane = () => void LazyConversationView.preload();

export function ChatsPage() {
  const page = useChatsPage();
  const { conversation, selectedId, me } = page;
  const search = useSearch('search');
  const names = useNameSearch(search.query, page.entries, me);
  const menu = useChatActions((id) => page.tiles.find((t) => t.id === id)?.isGroup ?? false);
  // The pane's code comes when a conversation is open (a reload at /c/<id>) or about to be, and otherwise once the
  // service worker has it in the cache (then it costs the first load nothing and the first opening is quick).
  useEffect(() => {
    if (selectedId) preloadPane();
  }, [selectedId]);
  useEffect(() => {
    void serviceWorkerSettled().then(preloadPane);
  }, []);
  return (
    <>
      <ChatsShell
        hasSelection={selectedId !== null}
        selectionKey={selectedId}
        list={
          <ChatList
            tiles={page.tiles}
            loaded={page.loaded}
            onOpen={page.open}
            onIntent={preloadPane}
            menu={menu}
            footer={<ChatsFooter />}
            search={<ListSearchField search={search} />}
            searchResults={listSearchResults(search, page.entries, me, names)}
          />
        }
        conversation={
          conversation && selectedId && me ? (
            <ConversationPane
              key={selectedId}
              {...page}
              menu={menu}
              conversation={conversation}
              conversationId={selectedId}
              me={me}
            />
          ) : (
            <NoConversation />
          )
        }
      />
      <ChatActionPrompt {...menu} />
    </>
  );
}

function ConversationPane(
  props: ReturnType<typeof useChatsPage> & {
    conversation: NonNullable<ReturnType<typeof useChatsPage>['conversation']>;
    conversationId: string;
    me: string;
    menu: ReturnType<typeof useChatActions>;
  },
) {
  const actions = useMessageActions(props.conversationId);
  const view = useConversationPane({
    conversation: props.conversation,
    composer: props.composer,
    entry: props.selectedEntry,
    conversationId: props.conversationId,
    me: props.me,
    now: props.now,
    onCall: props.call,
    onAction: actions.onAction,
    onMoreReactions: actions.onMoreReactions,
  });
  const sel = actions.selection;
  const names = new Map(
    (props.selectedEntry?.conversation.participants ?? []).map((p) => [p.user.id, displayName(p.user)] as const),
  );
  const anyOthers = view.rows.some((r) => sel.ids.has(r.id) && !r.own);
  const search = useConversationSearch(props.conversationId);
  const [info, setInfo] = useState(false);
  const closeInfo = useCallback(() => setInfo(false), []);
  // Blocking the other person of a direct chat: from «Информация» or the notice that replaces the composer.
  const blocking = useBlocking();
  const c = props.selectedEntry?.conversation;
  const peer = c ? directPeer(c, props.me) : null;
  const blocked = props.selectedEntry?.blockedByMe === true;
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
      <LazyConversationView
        {...view}
        onSearch={search.show}
        onInfo={() => setInfo(true)}
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
            {actions.forwarding && (
              <LazyForwardDialog
                messageIds={actions.forwarding}
                chats={props.tiles.map((t) => ({ id: t.id, title: t.title, avatar: t.avatar }))}
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
            {actions.reportingOn && (
              <LazyReportDialog target={{ messageId: actions.reportingOn }} onClose={actions.closeReport} />
            )}
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
      {info && <InfoPanel {...props} onClose={closeInfo} block={block} />}
    </div>
  );
}

/** «Информация»: its actor lives while this is mounted. */
function InfoPanel(
  props: Parameters<typeof ConversationPane>[0] & {
    onClose(): void;
    block: Parameters<typeof useConversationInfo>[0]['block'];
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
    picture: <LazyGroupPicture conversationId={props.conversationId} />,
    report: peer ? <LazyReportPersonButton userId={peer.id} /> : undefined,
  });
  return <LazyConversationInfo {...info} />;
}
