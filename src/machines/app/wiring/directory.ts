// The directory feature's effects: one load is both lists over the API client (a 404 means the administrator keeps
// the directory off), and «Вступить» is POST /api/groups/:id/join.
import { fromPromise } from 'xstate';
import { RequestFailure } from '../../../contract/failure';
import { directoryMachine } from '../../directory/directory/directory.machine';
import type { DirectoryPage } from '../../directory/directory/directory.protocol';
import type { Services } from '../services';

export async function loadDirectory(s: Services, q: string): Promise<DirectoryPage> {
  const query = q.trim() ? { q: q.trim() } : {};
  try {
    const [people, open] = await Promise.all([
      s.api.call('directoryUsers', { query }),
      s.api.call('directoryGroups', { query }),
    ]);
    return { users: people.users, groups: open.groups };
  } catch (err) {
    if (err instanceof RequestFailure && err.status === 404) return null;
    throw err;
  }
}

export const wireDirectory = (s: Services) =>
  directoryMachine.provide({
    actors: {
      load: fromPromise<DirectoryPage, { q: string }>(({ input }) => loadDirectory(s, input.q)),
      join: fromPromise(({ input }: { input: { conversationId: string } }) =>
        s.api.call('joinOpenGroup', { params: { id: input.conversationId } }),
      ),
    },
  });
