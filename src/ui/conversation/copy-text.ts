// How a message's code block copies its text: the pane hands down its selection actor's copy (the clipboard write
// is that actor's effect, and its «Скопировано» notice is the pane's), so no view writes to the clipboard itself.
// Where no pane provides it (a message drawn outside a conversation), a code block offers no copy button.
import { createContext } from 'react';

export const CopyTextContext = createContext<((text: string) => void) | null>(null);
