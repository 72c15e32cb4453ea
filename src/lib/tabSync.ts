import type { StudentAnswers } from './navState';

/**
 * What one tab tells the others of this browser (issue 28): a sign-out (and why), a sign-in, a
 * submit, a save. Every tab of the portal listens; a tab acts only on what concerns what it shows.
 */
export type TabMessage =
  | { type: 'signed-out'; reason: 'logout' | 'inactivity' }
  | { type: 'signed-in'; username: string }
  | { type: 'submitted'; applicationId: string }
  | { type: 'saved'; applicationId: string; answers: StudentAnswers };

const CHANNEL = 'portal.tabs';

const handlers = new Set<(message: TabMessage) => void>();
let channel: BroadcastChannel | null | undefined;
/** One channel object per tab, for sending and hearing: a channel never hears its own messages. */
function open(): BroadcastChannel | null {
  if (channel === undefined) {
    channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(CHANNEL);
    if (channel) channel.onmessage = (event: MessageEvent<TabMessage>) => handlers.forEach((handler) => handler(event.data));
  }
  return channel;
}

/** Tells every other tab; a browser without BroadcastChannel keeps each tab on its own. */
export function tellOtherTabs(message: TabMessage): void {
  open()?.postMessage(message);
}

/** Listens to the other tabs of this browser (never to this tab's own messages); returns the unsubscribe. */
export function onOtherTabs(handler: (message: TabMessage) => void): () => void {
  open();
  handlers.add(handler);
  return () => handlers.delete(handler);
}
