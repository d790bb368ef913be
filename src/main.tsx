// Placeholder entry until the client foundation lands.
import { createRoot } from 'react-dom/client';

createRoot(document.getElementById('root') as HTMLElement).render(<h1>Беседа</h1>);
