// The public face of the reports feature: other features import only this module, src/ui/reports/index.ts (its views) and its
// *.protocol.ts files. Its code loads with the dialog and the notices, never in the first bundle.
export { reportDialogMachine } from './reportDialog/reportDialog.machine';
export { reportNoticesMachine } from './reportNotices/reportNotices.machine';
