import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { useSystemActor } from './RuntimeContext';

/** A clicked message notification opens the chats page (the notifications actor has selected the conversation). */
export function useNotificationNavigation() {
  const actor = useSystemActor('notifications');
  const navigate = useNavigate();
  useEffect(() => {
    const sub = actor?.on('notifications.opened', () => navigate('/'));
    return () => sub?.unsubscribe();
  }, [actor, navigate]);
}
