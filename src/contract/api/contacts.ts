// Friends (server/contacts/): the list, the search by EBLID, requests and answers.
// Each route's method and path are in ./contacts.routes.ts; its schemas are joined to it here, by the same name.
import { z } from 'zod';
import { Contact, Eblid, Id, NUL_MESSAGE, noNul, PublicUser } from '../entities';
import { LIMITS } from '../limits';
import { contactsRoutes } from './contacts.routes';
import { Ok, withSchemas } from './with-schemas';

export const ContactsFilter = z.enum(['accepted', 'incoming', 'outgoing', 'all']);
export const ContactsQuery = z.strictObject({ filter: ContactsFilter.default('all') });
export const ContactsResponse = z.object({ contacts: z.array(Contact) });
export const ContactSearchQuery = z.strictObject({ code: Eblid });
export const ContactSearchResponse = z.object({ results: z.array(PublicUser) });
export const ContactAddBody = z.strictObject({
  identifier: z
    .string()
    .trim()
    .min(1, 'Укажите ID, ник или email')
    .max(LIMITS.identifierMax)
    .refine(noNul, NUL_MESSAGE),
});
export const ContactResponse = z.object({ contact: Contact });
export const ContactRespondBody = z.strictObject({ contactId: Id, action: z.enum(['accept', 'reject']) });
export const ContactRespondResponse = z.object({ contact: Contact.nullable() });
export const ContactRemoveBody = z.strictObject({ contactId: Id });

/** The routes of ./contacts.routes with their schemas. */
export const contactsApi = withSchemas(contactsRoutes, {
  contacts: { query: ContactsQuery, response: ContactsResponse },
  contactSearch: { query: ContactSearchQuery, response: ContactSearchResponse },
  contactAdd: { body: ContactAddBody, response: ContactResponse },
  contactRespond: { body: ContactRespondBody, response: ContactRespondResponse },
  contactRemove: { body: ContactRemoveBody, response: Ok },
});
