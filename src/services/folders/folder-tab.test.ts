// @vitest-environment jsdom
// The folder tab chosen on this device goes at sign-out with the rest of what the browser keeps for the user.
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { createServices } from '../app/services';
import { FOLDER_TAB_KEY, readFolderTab, writeFolderTab } from './folder-tab';

afterEach(() => localStorage.clear());

describe('the folder tab', () => {
  it('is kept on this device, and «Все чаты» removes it', () => {
    writeFolderTab('f1');
    expect(readFolderTab()).toBe('f1');
    writeFolderTab(null);
    expect(localStorage.getItem(FOLDER_TAB_KEY)).toBeNull();
  });

  it('is gone after sign-out clears what the browser keeps for the user', async () => {
    writeFolderTab('f1');
    localStorage.setItem('beseda.theme', 'dark');
    await createServices({ baseURL: '/api', session: () => null }).offline.clear('u1');
    expect(localStorage.getItem(FOLDER_TAB_KEY)).toBeNull();
    // The theme is the device's, not the user's: it stays.
    expect(localStorage.getItem('beseda.theme')).toBe('dark');
  });
});
