// The public face of the administration feature: other features import only this module, ui/index.ts (its views)
// and its *.protocol.ts files. Its code loads with the «Администрирование» page, never in the first bundle.
export { adminRegistrationMachine } from './machines/adminRegistration/adminRegistration.machine';
export { adminReportsMachine } from './machines/adminReports/adminReports.machine';
export { adminStatsMachine } from './machines/adminStats/adminStats.machine';
export { adminUsersMachine } from './machines/adminUsers/adminUsers.machine';
