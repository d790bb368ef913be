// The views of the chats feature that other features and the app's routes render.

export { ChatsBackButton } from '../shared/chats-shell-context';
export { ChatsPage } from './ChatsPage';
