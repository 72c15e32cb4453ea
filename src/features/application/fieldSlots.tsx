import { createContext, memo, useContext, type ComponentType, type ReactNode } from 'react';
import type { ExpandedField } from '../../../domain/catalogue';
import type { PageId, TabGroupDef } from '../../../domain/catalogue/types';
import type { RuleContext } from '../../../domain/rules/conditions';

export type AnswerUpdate = Record<string, string | boolean>;

/** What the form gives a document question. */
export interface DocumentSlotProps {
  field: ExpandedField;
  errors?: string[];
  loggedIn: boolean;
  onChange: (update: Record<string, string>) => void;
}

/** What the form gives a group answered one of several ways (spec/form.md §4 "Tabs"). */
export interface TabsSlotProps {
  group: TabGroupDef;
  answers: RuleContext;
  loggedIn: boolean;
  onChange: (update: Record<string, string>) => void;
  /** Renders the chosen tab's questions. */
  children: (keys: string[]) => ReactNode;
}

/**
 * Questions whose inputs another feature owns (documents: uploads and their tabs). The app fills
 * the slots, so the form engine renders them without importing that feature.
 */
export interface FieldSlots {
  DocumentField: ComponentType<DocumentSlotProps>;
  TabGroup: ComponentType<TabsSlotProps>;
  /** A hook: the tab the account chose in a tab group (kept on the server), or null. */
  useChosenTab: (tabGroupId: string | undefined, loggedIn: boolean) => string | null;
  /** What a signed-in applicant finds under a page's form (Final Steps: the recommenders they ask, issue 31). */
  AfterForm?: ComponentType<{ page: PageId }>;
}

export const FieldSlotsContext = createContext<FieldSlots | null>(null);

function useFieldSlots(): FieldSlots {
  const slots = useContext(FieldSlotsContext);
  if (!slots) throw new Error('A document question or tab group needs FieldSlotsContext (the form root provides it)');
  return slots;
}

/** Under a page's form, what another feature puts there for a signed-in applicant (memoised: the page is drawn again on each key typed). */
export const AfterFormSlot = memo(function AfterFormSlot({ page }: { page: PageId }) {
  const { AfterForm } = useFieldSlots();
  return AfterForm ? <AfterForm page={page} /> : null;
});

/** A document question, as the documents feature renders it. */
export function DocumentSlot(props: DocumentSlotProps) {
  const { DocumentField } = useFieldSlots();
  return <DocumentField {...props} />;
}

/** A tab group, as the documents feature renders it. */
export function TabsSlot(props: TabsSlotProps) {
  const { TabGroup } = useFieldSlots();
  return <TabGroup {...props} />;
}

const noChosenTab = () => null;

/**
 * The tab chosen in a tab group, so a gate around it stays open after a reload. Outside the form
 * root (a lone group in a test) there is no stored choice.
 */
export function useChosenTab(tabGroupId: string | undefined, loggedIn: boolean): string | null {
  const useStoredChoice = useContext(FieldSlotsContext)?.useChosenTab ?? noChosenTab;
  return useStoredChoice(tabGroupId, loggedIn);
}
