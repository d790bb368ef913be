// The directory feature's effects: one load is both lists over the API client, and «Вступить» is
// POST /api/groups/:id/join. The first load of a page asks the instance whether the directory is on and asks for
// the lists only then, so a server with it off gets no request it answers 404 (docs/behaviour.md §10.25).
import { fromPromise } from 'xstate';
import { RequestFailure } from '../../contract/failure';
import { directoryMachine } from '../../machines/directory/directory/directory.machine';
import type { DirectoryEffects, DirectoryPage } from '../../machines/directory/directory/directory.protocol';
import type { Services } from '../app/services';

export async function loadDirectory(s: Services, q: string, first = false): Promise<DirectoryPage> {
  const query = q.trim() ? { q: q.trim() } : {};
  if (first && (await s.api.call('instance')).directory !== true) return null;
  try {
    const [people, open] = await Promise.all([
      s.api.call('directoryUsers', { query }),
      s.api.call('directoryGroups', { query }),
    ]);
    return { users: people.users, groups: open.groups };
  } catch (err) {
    // Turned off since the page asked: the lists answer 404.
    if (err instanceof RequestFailure && err.status === 404) return null;
    throw err;
  }
}

export const wireDirectory = (s: Services) =>
  directoryMachine.provide({
    actors: {
      load: fromPromise<DirectoryPage, { q: string; first?: boolean }>(({ input }) =>
        loadDirectory(s, input.q, input.first),
      ),
      join: fromPromise(({ input }: { input: { conversationId: string } }) =>
        s.api.call('joinOpenGroup', { params: { id: input.conversationId } }),
      ),
    } satisfies DirectoryEffects,
  });
