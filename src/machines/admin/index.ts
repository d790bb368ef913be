// The public face of the administration feature: other features import only this module, src/ui/admin/index.ts (its views)
// and its *.protocol.ts files. Its code loads with the «Администрирование» page, never in the first bundle.
export { adminRegistrationMachine } from './adminRegistration/adminRegistration.machine';
export { adminReportsMachine } from './adminReports/adminReports.machine';
export { adminStatsMachine } from './adminStats/adminStats.machine';
export { adminUsersMachine } from './adminUsers/adminUsers.machine';
