// The administration services every process shares: accounts (deactivation, roles, reset links), registration
// (modes and invite codes) and reports. Registration in auth.routes.ts asks `registration`; the routes live in
// admin.routes.ts.
import fp from 'fastify-plugin';
import { createMessageDeleter } from '../messages/delete-message';
import { createPins } from '../messages/message-pins';
import { type Accounts, createAccounts } from './accounts';
import { createRegistration, type Registration } from './registration';
import { createReports, type Reports } from './reports';

declare module 'fastify' {
  interface FastifyInstance {
    accounts: Accounts;
    registration: Registration;
    reports: Reports;
  }
}

export const administrationPlugin = fp(
  async (app) => {
    const { clock, db, lists, realtime, signIns } = app;
    const accounts = createAccounts({ db, clock, signIns, lists, realtime });
    const pins = createPins({ db, lists, realtime });
    const deleteMessage = createMessageDeleter({ db, lists, realtime, unpin: pins.deleted });
    app.decorate('accounts', accounts);
    app.decorate('registration', createRegistration(db, clock));
    app.decorate('reports', createReports({ db, clock, realtime, accounts, deleteMessage }));
  },
  {
    name: 'administration',
    decorators: { fastify: ['clock', 'db', 'lists', 'realtime', 'signIns'] },
    dependencies: ['base', 'realtime', 'lists', 'sign-ins'],
  },
);
