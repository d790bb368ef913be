// The invite codes' views other features render: «Коды приглашения» in «Администрирование» and «Приглашения» in
// Settings.
export { InviteCodesSection, InviteCodesView, SettingsInvitesSection } from './InviteCodes';
