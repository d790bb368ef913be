// The views of the chats feature that other features and the app's routes render.
export { ChatsPage } from './ChatsPage';
export { ChatsBackButton } from './ChatsShell';
