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

/**
 * Tabs of spec/form.md §4 on the ARIA tabs pattern (arrow keys move between tabs, Enter/Space or a
 * click switches). Switching clears the answers of the tab being left; a file there is deleted
 * first, unless its conversion is still running, which the 'File Upload in Progress' dialog says.
 */
export function TabGroup({ group, answers, loggedIn, onChange, children }: TabGroupProps) {
  const queryClient = useQueryClient();
  const { showToast } = useToast();
  const stored = useQuery({ ...tabsQuery, enabled: loggedIn });
  const [choice, setChoice] = useState<string | null>(null);
  const [blocked, setBlocked] = useState(false);
  const [switching, setSwitching] = useState(false);
  const chosen = choice ?? initialTab(group, stored.data, answers);
  const current = group.tabs.find((tab) => tab.id === chosen)!;

  async function switchTo(nextId: string) {
    if (nextId === chosen || switching) return;
    const next = group.tabs.find((tab) => tab.id === nextId)!;
    setSwitching(true);
    try {
      if (loggedIn) {
        for (const key of current.keys.filter((k) => fieldByKey.get(k)?.type === 'document')) {
          // The conversion status is checked first; while it is unknown or pending the switch waits.
          const state = queryClient.getQueryState<ConversionStatus>(conversionQuery(key).queryKey);
          const status = state?.data?.status;
          if (state?.fetchStatus === 'fetching' || status === 'unprocessed' || status === 'in_progress' || (isAnswered(answers[key]) && !status)) {
            setBlocked(true);
            return;
          }
          if (status === 'completed' || status === 'failed') {
            await deleteConversion(key);
            await refreshDocumentQueries(queryClient, [key]);
          }
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

  return (
    <div className="tabs">
      <p className="tabs__note">Choose one way. Switching removes what you gave the other way.</p>
      <Tabs label={group.label} tabs={group.tabs} selected={chosen} onSelect={(id) => void switchTo(id)}>
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
    </div>
  );
}
