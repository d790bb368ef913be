// How «изменено» opens «История изменений»: the pane hands down the opener (the dialog is its state), so the mark is
// a button only where a pane shows the message; elsewhere (a message drawn outside a conversation) it stays a mark.
import { createContext } from 'react';

export const EditHistoryContext = createContext<((messageId: string) => void) | null>(null);
