// Friends (server/contacts/): each route's name, method and path, without zod
// (src/contract/routes.ts joins them: the browser's table); their schemas are in ./contacts.ts.
import type { RouteTable } from './route-info';

export const contactsRoutes = {
  contacts: { method: 'GET', path: '/contacts', auth: true },
  contactSearch: { method: 'GET', path: '/contacts/search', auth: true },
  contactAdd: { method: 'POST', path: '/contacts/add', auth: true },
  contactRespond: { method: 'POST', path: '/contacts/respond', auth: true },
  contactRemove: { method: 'POST', path: '/contacts/remove', auth: true },
} as const satisfies RouteTable;
