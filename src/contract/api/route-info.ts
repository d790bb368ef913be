// What the zod-free route tables (<feature>.routes.ts) are made of: method, path (relative to /api) and whether a
// bearer token is needed. The browser calls routes from them and so never loads zod.

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
export interface RouteInfo {
  method: Method;
  path: string;
  auth: boolean;
}
/** One feature's routes, by name. */
export type RouteTable = Record<string, RouteInfo>;
