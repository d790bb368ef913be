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
import { directPeer } from '../../../shared/format';
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
  const view = useConversationPane({
    conversation: props.conversation,
    composer: props.composer,
    entry: props.selectedEntry,
    conversationId: props.conversationId,
    me: props.me,
    now: props.now,
    onCall: props.call,
  });
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
  });
  return <LazyConversationInfo {...info} />;
}
