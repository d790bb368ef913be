// Placeholder pages until their issues land (chats, contacts, calls, settings). Styles: placeholder.css (src/main.tsx).
export function Placeholder({ title, text }: { title: string; text: string }) {
  return (
    <section className="placeholder">
      <h1>{title}</h1>
      <p>{text}</p>
    </section>
  );
}

export const ChatsPage = () => <Placeholder title="Чаты" text="Выберите чат" />;
export const ContactsPage = () => <Placeholder title="Контакты" text="Список контактов появится здесь." />;
export const CallsPage = () => <Placeholder title="Подключиться к комнате" text="Видеокомнаты появятся здесь." />;
export const SettingsPage = () => <Placeholder title="Профиль" text="Настройки профиля появятся здесь." />;
