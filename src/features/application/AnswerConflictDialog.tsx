import { useState } from 'react';
import { fieldByKey } from '../../../domain/catalogue';
import { ANSWERS_CHANGED_MESSAGE } from '../../../domain/messages';
import { Button } from '../../ui/Button';
import { Modal } from '../../ui/Modal';
import { RadioGroup } from '../../ui/RadioGroup';
import type { AnswerConflict, Choice } from './answerConflicts';

/** The question an answer belongs to, as the applicant knows it: 'Sibling 2: First Name', 'Address: City'. */
export function questionName(key: string): string {
  const field = fieldByKey.get(key);
  if (!field) return key;
  return `${field.messagePrefix || `${field.group.title}: `}${field.label}`;
}

/**
 * Answers changed both on this page and in another tab or on another device (issue 28): one
 * question each, keep mine or take the newer one; nothing is saved until the applicant chooses.
 * Closing it (×, Escape, Not now) chooses nothing and writes nothing: the page asks again when
 * its answers are next saved by a button (issue 48).
 */
export function AnswerConflictDialog({
  conflicts,
  onResolve,
  onClose,
}: {
  conflicts: readonly AnswerConflict[];
  onResolve: (choices: Record<string, Choice>) => void;
  onClose: () => void;
}) {
  const [choices, setChoices] = useState<Record<string, Choice>>(() => Object.fromEntries(conflicts.map((c) => [c.key, 'mine'])));
  return (
    <Modal
      open
      onClose={onClose}
      header="Answers changed elsewhere"
      size="m"
      footer={
        <>
          <Button onClick={() => onResolve(choices)}>Save these answers</Button>
          <Button variant="secondary" onClick={onClose}>
            Not now
          </Button>
        </>
      }
    >
      <p>{ANSWERS_CHANGED_MESSAGE}</p>
      {conflicts.map((conflict) => (
        <RadioGroup
          key={conflict.key}
          id={`conflict-${conflict.key}`}
          legend={questionName(conflict.key)}
          value={choices[conflict.key]}
          options={[
            { value: 'mine', label: `Keep mine: ${conflict.mineShown}` },
            { value: 'theirs', label: `Use the newer one: ${conflict.theirsShown}` },
          ]}
          onChange={(value) => setChoices((current) => ({ ...current, [conflict.key]: value as Choice }))}
        />
      ))}
    </Modal>
  );
}
