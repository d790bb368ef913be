// The chats page (route '/', docs/behaviour.md §2): the list pane 'Чаты' with the footer tiles, and the message pane of the
// selected conversation, composed into the two-pane shell (sliding panels on narrow screens).
import { ChatList, LazyChatActionPrompt } from './ChatList';
import { ChatsFooter } from './ChatsFooter';
import { ChatsShell } from './ChatsShell';
import { LazyConversationView, NoConversation } from '../conversation/index';
import { useChatActions } from './useChatActions';
import { useChatsPage } from './useChatsPage';
import { ListSearchField, listSearchResults } from '../search/index';
import { useNameSearch, useSearch } from '../search/index';
import { type ReactNode, Suspense, useCallback, useEffect } from 'react';
import { ChunkFailed, lazyView } from '../shared/lazy-view';
import type { ConversationPaneProps } from './ConversationPane';
import { ConversationWait } from './ConversationWait';
import { serviceWorkerSettled } from '../shared/service-worker-settled';
import { LazySecretDevice } from '../secretChats/index';
import { LazyThreadsEntry, useFollowedThreads } from '../threads/index';
import { Foldered } from '../folders/index';
import type { ConversationEntry } from '../../contract/entities';
import type { ChatTileView } from '../conversation/index';
import './chats.css';

/**
 * The selected conversation's pane (message actions, search, «Информация») and the conversation's views are chunks
 * of their own, fetched together (with the conversation's machines, which the chats actor fetches) when one is open
 * or the list is touched.
 */
const LazyConversationPane = lazyView<ConversationPaneProps>(() =>
  import('./ConversationPane').then((m) => m.ConversationPane),
);
const preloadViews = () => {
  void LazyConversationPane.preload();
  void LazyConversationView.preload();
};

/**
 * «Обсуждения»: its actor lives while the list is shown; its view's chunk is fetched at once, alongside the actor's
 * code, so the entry shows as soon as there is a followed thread.
 */
function FollowedThreads(props: { entries: readonly ConversationEntry[]; me: string | null }) {
  const threads = useFollowedThreads(props.entries, props.me);
  useEffect(() => void LazyThreadsEntry.preload(), []);
  if (threads.rows.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <LazyThreadsEntry {...threads} />
    </Suspense>
  );
}

export function ChatsPage() {
  const page = useChatsPage();
  const { conversation, selectedId, me, prepare } = page;
  const search = useSearch('search');
  const names = useNameSearch(search.query, page.entries, me);
  const menu = useChatActions((id) => page.tiles.find((t) => t.id === id)?.isGroup ?? false);
  // The pane's code comes when a conversation is open (a reload at /c/<id>) or about to be, and otherwise once the
  // service worker has it in the cache (then it costs the first load nothing and the first opening is quick).
  const preloadPane = useCallback(() => {
    preloadViews();
    prepare();
  }, [prepare]);
  // Opening a conversation fetches its machines by itself; here only the views.
  useEffect(() => {
    if (selectedId) preloadViews();
  }, [selectedId]);
  useEffect(() => {
    void serviceWorkerSettled().then(preloadPane);
  }, [preloadPane]);
  // With folders, the list shows under their tabs, filtered by the chosen one (the folders feature's).
  const list = (tiles: ChatTileView[], tabs?: ReactNode) => (
    <ChatList
      tiles={tiles}
      tabs={tabs}
      loaded={page.loaded}
      onOpen={page.open}
      onIntent={preloadPane}
      menu={menu}
      footer={<ChatsFooter />}
      threads={<FollowedThreads entries={page.entries} me={me} />}
      search={<ListSearchField search={search} />}
      searchResults={listSearchResults(search, page.entries, me, names)}
    />
  );
  return (
    <>
      <ChatsShell
        hasSelection={selectedId !== null}
        selectionKey={selectedId}
        list={<Foldered tiles={page.tiles} render={list} />}
        conversation={
          selectedId && me ? (
            conversation ? (
              <LazyConversationPane
                key={selectedId}
                {...page}
                menu={menu}
                conversation={conversation}
                conversationId={selectedId}
                me={me}
              />
            ) : page.failed ? (
              <ChunkFailed onRetry={prepare} />
            ) : (
              <ConversationWait />
            )
          ) : (
            <NoConversation />
          )
        }
      />
      {(menu.confirm || menu.error) && (
        <Suspense fallback={null}>
          <LazyChatActionPrompt {...menu} />
        </Suspense>
      )}
      {/* Every signed-in browser becomes a device of secret chats (docs/secret-chats.md "Reaching everyone"). */}
      {(page.loaded || page.hasSecret) && me && (
        <Suspense fallback={null}>
          <LazySecretDevice userId={me} now={page.hasSecret} />
        </Suspense>
      )}
    </>
  );
}
