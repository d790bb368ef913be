// The chats list pane's footer tiles ('Новая беседа', 'Контакты', own profile). Owned by the contacts feature.
export function ChatsFooter() {
  return null;
}
