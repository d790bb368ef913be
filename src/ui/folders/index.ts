// The views of the folders feature (chat folders, «Папки») that other features render: the chat list under its folder
// tabs, whose tabs and filtering load as a chunk of their own once there are folders; the settings' «Папки» load with
// the settings page (deferred.ts).
export { Foldered } from './Foldered';
