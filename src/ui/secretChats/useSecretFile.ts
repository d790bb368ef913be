// One encrypted attachment as a bubble shows it: fetched and decrypted (secret-files.ts) into an object URL that
// lives while the bubble is mounted and is revoked when it goes. Pictures and voice messages open when shown; a file
// opens when asked to be saved.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { SecretAttachment } from '../../machines/secretChats/secretChat/secretChat.protocol';
import { useViewPorts } from '../app/RuntimeContext';

export type SecretFileState = { status: 'idle' | 'opening' | 'failed'; url: null } | { status: 'ready'; url: string };

const IDLE: SecretFileState = { status: 'idle', url: null };

export function useSecretFile(
  attachment: SecretAttachment,
  openAtOnce: boolean,
): { file: SecretFileState; open(): Promise<string | null> } {
  const { openSecretAttachment } = useViewPorts();
  const [file, setFile] = useState<SecretFileState>(IDLE);
  const made = useRef<string | null>(null);
  const abort = useRef<AbortController | null>(null);
  const mounted = useRef(true);

  const open = useCallback(async () => {
    if (made.current) return made.current;
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    setFile({ status: 'opening', url: null });
    try {
      const blob = await openSecretAttachment(attachment, controller.signal);
      if (!mounted.current || controller.signal.aborted) return null;
      made.current = URL.createObjectURL(blob);
      setFile({ status: 'ready', url: made.current });
      return made.current;
    } catch {
      if (mounted.current && !controller.signal.aborted) setFile({ status: 'failed', url: null });
      return null;
    }
  }, [attachment, openSecretAttachment]);

  useEffect(() => {
    mounted.current = true;
    if (openAtOnce) void open();
    return () => {
      mounted.current = false;
      abort.current?.abort();
      if (made.current) URL.revokeObjectURL(made.current);
      made.current = null;
    };
  }, [open, openAtOnce]);

  return { file, open };
}
