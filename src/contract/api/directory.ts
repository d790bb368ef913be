// The server's directory of people and open groups (server/directory/); the schemas are in
// src/contract/directory.ts.
// Each route's method and path are in ./directory.routes.ts; its schemas are joined to it here, by the same name.
import { DirectoryGroupsResponse, DirectoryQuery, DirectoryUsersResponse } from '../directory';
import { directoryRoutes } from './directory.routes';
import { withSchemas } from './with-schemas';

/** The routes of ./directory.routes with their schemas. */
export const directoryApi = withSchemas(directoryRoutes, {
  directoryUsers: { query: DirectoryQuery, response: DirectoryUsersResponse },
  directoryGroups: { query: DirectoryQuery, response: DirectoryGroupsResponse },
});
