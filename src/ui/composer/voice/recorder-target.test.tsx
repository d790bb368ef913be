// One recorder, two composers on screen (the chat's and a thread panel's): each shows only the recording it started,
// and the thread's microphone starts a recording for its thread.
import { act, renderHook } from '@testing-library/react';
import { expect, it } from 'vitest';
import { createActor, fromCallback } from 'xstate';
import { recorderMachine } from '../../../machines/composer/recorder/recorder.machine';
import type { RecorderRef } from '../../../machines/composer/recorder/recorder.protocol';
import { useRecorderPanel } from './useRecorderPanel';

it('shows the recording in the composer that started it only', () => {
  const recorder = createActor(
    recorderMachine.provide({
      actors: { record: fromCallback(({ sendBack }) => sendBack({ type: 'recording.started' })) },
    }),
  ).start() as unknown as RecorderRef;
  const thread = { conversationId: 'g1', rootId: 'r1' };
  const chat = renderHook(() => useRecorderPanel(recorder));
  const panel = renderHook(() => useRecorderPanel(recorder, thread));
  act(() => panel.result.current?.onStart());
  expect(recorder.getSnapshot().context.thread).toEqual(thread);
  expect(panel.result.current?.panel?.phase).toBe('recording');
  expect(chat.result.current?.panel).toBeNull();
  act(() => recorder.send({ type: 'recorder.cancel' }));
  act(() => chat.result.current?.onStart());
  expect(chat.result.current?.panel?.phase).toBe('recording');
  expect(panel.result.current?.panel).toBeNull();
});
