import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useCombobox } from 'downshift';
import { useEffect, useRef, useState } from 'react';
import { useDebounce } from 'use-debounce';
import { lookupApi, suggestionsQuery, type LookupSuggestion } from './api/lookup';
import type { ExpandedField } from '../../../domain/catalogue';
import { AUTOCOMPLETE, DEFAULT_INPUT_MAX_LENGTH } from '../../../domain/config';
import { answerText, type RuleContext } from '../../../domain/rules/conditions';
import { describedBy, FieldMessages } from '../../ui/Field';
import { lookupAnswers } from './lookupAnswers';

/** The select messages of spec/form.md §8 and the school lookup's manual-entry line (§7). */
export const lookupTexts = {
  noOptions: 'No options',
  loading: 'Loading...',
  placeholder: 'Select...',
  use: (text: string) => `Use: ${text}`,
  manualEntry: 'Enter your school information below.',
  /** Read out once a chosen record has filled the fields below. */
  filled: (name: string) => `${name} chosen. Its details are filled in below.`,
  /** Read out when the list changes. */
  count: (n: number) => (n === 0 ? 'No options' : `${n} ${n === 1 ? 'result' : 'results'} available. Use the up and down arrow keys to choose, Enter to select.`),
} as const;

/** A record from the list, or the typed text itself ('Use: <text>'). */
type Item = { kind: 'record'; suggestion: LookupSuggestion } | { kind: 'typed'; text: string };
const itemText = (item: Item | null) => (!item ? '' : item.kind === 'record' ? item.suggestion.text : item.text);

interface LookupFieldProps {
  field: ExpandedField;
  answers: RuleContext;
  errors?: string[];
  onChange: (update: Record<string, string>) => void;
}

/**
 * The autocomplete input (ARIA 1.2 combobox through downshift's useCombobox): suggestions from
 * /lookup/find debounced 200 ms with a 500 ms maximum wait, five at most, plus 'Use: <text>' to keep
 * what was typed. Choosing a record fills the group's answers from its detail; a failed detail
 * keeps the label. What is typed is never dropped: leaving the field keeps it as a manual entry.
 */
export function LookupField({ field, answers, errors, onChange }: LookupFieldProps) {
  const lookup = field.lookup!;
  const committed = answerText(answers[field.key]);
  const [inputValue, setInputValue] = useState(committed);
  const [isOpen, setIsOpen] = useState(false);
  /** A record was chosen and its detail is on the way: not a manual entry. */
  const [filling, setFilling] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  // The answers can change from outside (a restored save, a hidden group cleared): follow them.
  useEffect(() => setInputValue(committed), [committed]);

  const typed = inputValue.trim();
  const [searched] = useDebounce(typed, AUTOCOMPLETE.debounceMs, { maxWait: AUTOCOMPLETE.maxWaitMs });
  const { data, isFetching } = useQuery({
    ...suggestionsQuery(lookup.category, searched),
    enabled: isOpen && searched !== '',
    placeholderData: keepPreviousData,
  });
  const records = typed === '' ? [] : (data ?? []);
  const loading = isOpen && typed !== '' && (typed !== searched || isFetching);
  const offerTyped = typed !== '' && !records.some((s) => s.text.toLowerCase() === typed.toLowerCase());
  const items: Item[] = [...records.map((suggestion) => ({ kind: 'record' as const, suggestion })), ...(offerTyped ? [{ kind: 'typed' as const, text: typed }] : [])];

  // Picking one record then another: only the last choice's detail may fill the answers.
  const choice = useRef(0);
  async function choose(item: Item) {
    const current = ++choice.current;
    if (item.kind === 'typed') {
      setFilling(false);
      keepTyped(item.text);
      return;
    }
    const label = item.suggestion.text;
    setFilling(true);
    onChange({ [field.key]: label });
    const detail = await lookupApi.detail(lookup.category, item.suggestion.id);
    if (current !== choice.current) return;
    setFilling(false);
    // spec/form.md §7: when the detail fails, the label is stored in the primary field (a manual entry).
    if (detail) {
      onChange(lookupAnswers(lookup, detail, label, answers));
      setAnnouncement(lookupTexts.filled(label));
    } else keepTyped(label);
  }

  /**
   * A manual entry: the typed name, and nothing of a record chosen before: its code and every field
   * it filled are cleared, so another school's address is never sent with this one.
   */
  function keepTyped(text: string) {
    const update: Record<string, string> = { [field.key]: text };
    if (answerText(answers[lookup.chosenKey]) !== '') {
      for (const key of Object.values(lookup.fills)) {
        if (key === field.key) continue;
        for (const filled of [key, `${key}_desc`]) if (answerText(answers[filled]) !== '') update[filled] = '';
      }
    }
    onChange(update);
  }

  const { getLabelProps, getInputProps, getMenuProps, getItemProps, highlightedIndex } = useCombobox<Item>({
    items,
    itemToString: itemText,
    inputValue,
    onInputValueChange: ({ inputValue: next }) => setInputValue(next ?? ''),
    isOpen,
    onIsOpenChange: ({ isOpen: open }) => setIsOpen(Boolean(open)),
    // The answers hold the choice; downshift only reports it.
    selectedItem: null,
    onSelectedItemChange: ({ selectedItem }) => selectedItem && void choose(selectedItem),
    inputId: field.key,
    labelId: `${field.key}-label`,
    menuId: `${field.key}-listbox`,
    getItemId: (index) => `${field.key}-option-${index}`,
    stateReducer: (state, { type, changes }) => {
      // Escape closes an open list and keeps the text; with the list closed it restores the saved answer.
      if (type === useCombobox.stateChangeTypes.InputKeyDownEscape) return { ...changes, inputValue: state.isOpen ? state.inputValue : committed };
      // The selected item is held at null (the answers hold the choice), so downshift sees the
      // choice it just made taken back at its next action, and would empty the box: the pointer's
      // leaving the closed list is such an action, and the emptied box was then kept as a manual
      // entry, erasing the school (issue 48). The box keeps its text.
      if (type === useCombobox.stateChangeTypes.ControlledPropUpdatedSelectedItem) return { ...changes, inputValue: state.inputValue };
      return changes;
    },
  });

  const invalid = errors && errors.length > 0 ? true : undefined;
  const manual = !filling && committed !== '' && answerText(answers[lookup.chosenKey]) === '';
  const message = !isOpen ? null : loading ? lookupTexts.loading : records.length === 0 ? lookupTexts.noOptions : null;

  return (
    <div className={`field field--lookup${invalid ? ' field--invalid' : ''}`}>
      <label {...getLabelProps()} className="field__label">
        {field.label}
      </label>
      <FieldMessages id={field.key} hint={field.hint} errors={errors} />
      <div className="lookup">
        <input
          {...getInputProps({
            name: field.key,
            className: 'input input--outlined',
            placeholder: lookupTexts.placeholder,
            maxLength: field.maxLength ?? DEFAULT_INPUT_MAX_LENGTH,
            autoComplete: 'off',
            'aria-invalid': invalid,
            'aria-describedby': describedBy({ id: field.key, hint: field.hint, errors }, manual ? `${field.key}-manual` : undefined),
            // Set here, in the event, not only through onInputValueChange: a render between two
            // keystrokes with a stale value would otherwise drop a character.
            onChange: (event) => {
              setInputValue((event.target as HTMLInputElement).value);
              setAnnouncement('');
            },
            // Leaving the field without choosing keeps what was typed (a highlighted option is chosen by downshift).
            onBlur: () => {
              if (!(isOpen && highlightedIndex >= 0) && inputValue.trim() !== committed) keepTyped(inputValue.trim());
            },
            onKeyDown: (event) => {
              if (event.key !== 'Enter' || (isOpen && highlightedIndex >= 0)) return;
              // Enter without a highlighted option keeps the typed text instead of sending the form.
              if (inputValue.trim() !== committed || isOpen) {
                event.preventDefault();
                (event.nativeEvent as KeyboardEvent & { preventDownshiftDefault?: boolean }).preventDownshiftDefault = true;
                if (inputValue.trim() !== committed) keepTyped(inputValue.trim());
                setIsOpen(false);
              }
            },
          })}
        />
        <div className="lookup__menu" hidden={!isOpen || (items.length === 0 && !message)}>
          <ul {...getMenuProps()} className="lookup__list" hidden={items.length === 0}>
            {isOpen &&
              items.map((item, index) => (
                <li
                  key={item.kind === 'record' ? item.suggestion.id : 'typed'}
                  className={`lookup__option${highlightedIndex === index ? ' lookup__option--highlighted' : ''}`}
                  {...getItemProps({ item, index })}
                >
                  {item.kind === 'record' ? (
                    <>
                      <span className="lookup__text">{item.suggestion.text}</span>
                      {item.suggestion.sub_text && <span className="lookup__sub">{item.suggestion.sub_text}</span>}
                    </>
                  ) : (
                    lookupTexts.use(item.text)
                  )}
                </li>
              ))}
          </ul>
          {message && (
            <p className="lookup__message" aria-hidden="true">
              {message}
            </p>
          )}
        </div>
      </div>
      <p className="visually-hidden" role="status">
        {isOpen ? (loading ? lookupTexts.loading : typed === '' ? '' : lookupTexts.count(records.length)) : announcement}
      </p>
      <p id={`${field.key}-manual`} className="field__note" role="status">
        {manual ? lookupTexts.manualEntry : ''}
      </p>
      {lookup.credit && (
        <p className="field__credit">
          <a href={lookup.credit.href} target="_blank" rel="noreferrer">
            {lookup.credit.text}
            <span className="visually-hidden"> (opens in a new tab)</span>
          </a>
        </p>
      )}
    </div>
  );
}
