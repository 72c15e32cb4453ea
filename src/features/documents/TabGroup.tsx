import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { conversionQuery, deleteConversion, type ConversionStatus } from './api/conversion';
import { refreshDocumentQueries } from './api/documentAnswers';
import { putTab, tabsQuery } from './api/tabs';
import { ServerError } from '../../lib/api/errors';
import { fieldByKey } from '../../../domain/catalogue';
import type { TabGroupDef } from '../../../domain/catalogue/types';
import { isAnswered, type AnswerValue } from '../../../domain/rules/conditions';
import { Button } from '../../ui/Button';
import { Modal } from '../../ui/Modal';
import { Tabs } from '../../ui/Tabs';
import { useToast } from '../../ui/Toast';
import { tabsErrorLabel } from './labels';

const UPLOAD_IN_PROGRESS = { header: 'File Upload in Progress', text: 'Please wait until the file upload has completed.' } as const;

/** The tab shown first: the stored choice, else the tab that already holds answers, else the first. */
function initialTab(group: TabGroupDef, stored: Record<string, string> | undefined, answers: Record<string, AnswerValue>): string {
  const choice = stored?.[group.id];
  if (choice && group.tabs.some((tab) => tab.id === choice)) return choice;
  return (group.tabs.find((tab) => tab.keys.some((key) => isAnswered(answers[key]))) ?? group.tabs[0]!).id;
}

interface TabGroupProps {
  group: TabGroupDef;
  answers: Record<string, AnswerValue>;
  loggedIn: boolean;
  onChange: (update: Record<string, string>) => void;
  /** Renders the chosen tab's questions. */
  children: (keys: string[]) => ReactNode;
}

const PENDING = new Set(['unprocessed', 'in_progress']);

/** What the confirmation says switching removes. */
const removalText = (given: string[]) => `Switching removes ${given.join(' and ')}. This cannot be undone.`;

/**
 * Tabs of spec/form.md §4 on the ARIA tabs pattern (arrow keys move between tabs, Enter/Space or a
 * click switches). Switching clears the answers of the tab being left, so it asks first when that
 * tab holds something, and says what. A file there is deleted first; while its conversion is known
 * to be running (or an uploaded file's status is still being read) the 'File Upload in Progress'
 * dialog holds the switch. A tab without a file switches whatever its status call is doing.
 */
/** The tab the account chose in a group, as the server keeps it (for the form's gates). */
export function useStoredTab(tabGroupId: string | undefined, loggedIn: boolean): string | null {
  const stored = useQuery({ ...tabsQuery, enabled: loggedIn && tabGroupId !== undefined });
  return (tabGroupId && stored.data?.[tabGroupId]) || null;
}

export function TabGroup({ group, answers, loggedIn, onChange, children }: TabGroupProps) {
  const queryClient = useQueryClient();
  const { showToast } = useToast();
  const stored = useQuery({ ...tabsQuery, enabled: loggedIn });
  const [choice, setChoice] = useState<string | null>(null);
  const [blocked, setBlocked] = useState(false);
  const [confirming, setConfirming] = useState<{ tabId: string; files: string[]; given: string[] } | null>(null);
  const [switching, setSwitching] = useState(false);
  const chosen = choice ?? initialTab(group, stored.data, answers);
  const current = group.tabs.find((tab) => tab.id === chosen)!;
  const isDocument = (key: string) => fieldByKey.get(key)?.type === 'document';
  const conversionOf = (key: string) => queryClient.getQueryState<ConversionStatus>(conversionQuery(key).queryKey);
  /** A file is attached: it is marked answered, or its conversion is known to exist. */
  const hasFile = (key: string) => {
    const status = conversionOf(key)?.data?.status;
    return isAnswered(answers[key]) || (status !== undefined && status !== 'not_answered');
  };

  /** A tab was chosen: block, ask, or switch at once when the tab being left holds nothing. */
  function choose(nextId: string) {
    if (nextId === chosen || switching) return;
    const files = loggedIn ? current.keys.filter((key) => isDocument(key) && hasFile(key)) : [];
    const running = files.some((key) => {
      const state = conversionOf(key);
      return state?.fetchStatus === 'fetching' || PENDING.has(state?.data?.status ?? 'unknown');
    });
    if (running) {
      setBlocked(true);
      return;
    }
    const given = [
      ...files.map((key) => `your uploaded file for ${fieldByKey.get(key)!.label}`),
      ...current.keys.filter((key) => !isDocument(key) && isAnswered(answers[key])).map((key) => `what you wrote in ${fieldByKey.get(key)!.label}`),
    ];
    if (given.length > 0) setConfirming({ tabId: nextId, files, given });
    else void switchTo(nextId, []);
  }

  async function switchTo(nextId: string, files: string[]) {
    const next = group.tabs.find((tab) => tab.id === nextId)!;
    setSwitching(true);
    try {
      if (loggedIn) {
        for (const key of files) {
          await deleteConversion(key);
          await refreshDocumentQueries(queryClient, [key]);
        }
        await putTab(group.id, nextId);
        queryClient.setQueryData(tabsQuery.queryKey, { ...(stored.data ?? {}), [group.id]: nextId });
      }
      onChange(Object.fromEntries(current.keys.flatMap((key) => [[key, ''], [`${key}_desc`, '']]).filter(([key]) => isAnswered(answers[key!]))));
      setChoice(nextId);
    } catch (error) {
      if (!(error instanceof ServerError)) throw error;
      showToast({ severity: 'error', label: tabsErrorLabel(next.label), message: error.message });
      // The documents may have changed half-way: read them again.
      await refreshDocumentQueries(queryClient, current.keys);
    } finally {
      setSwitching(false);
    }
  }

  const confirmingTab = confirming && group.tabs.find((tab) => tab.id === confirming.tabId);
  return (
    <div className="tabs">
      <p className="tabs__note">Choose one way. Switching removes what you gave the other way.</p>
      <Tabs label={group.label} tabs={group.tabs} selected={chosen} onSelect={choose}>
        {children(current.keys)}
      </Tabs>
      <Modal
        open={blocked}
        onClose={() => setBlocked(false)}
        header={UPLOAD_IN_PROGRESS.header}
        size="xs"
        footer={<Button onClick={() => setBlocked(false)}>OK</Button>}
      >
        <p>{UPLOAD_IN_PROGRESS.text}</p>
      </Modal>
      <Modal
        open={confirming !== null}
        onClose={() => setConfirming(null)}
        header={`Switch to ${confirmingTab?.label ?? ''}?`}
        size="xs"
        footer={
          <>
            <Button variant="secondary" onClick={() => setConfirming(null)}>
              Cancel
            </Button>
            <Button
              loading={switching}
              onClick={() => confirming && void switchTo(confirming.tabId, confirming.files).finally(() => setConfirming(null))}
            >
              Remove and switch
            </Button>
          </>
        }
      >
        <p>{confirming ? removalText(confirming.given) : ''}</p>
      </Modal>
    </div>
  );
}
