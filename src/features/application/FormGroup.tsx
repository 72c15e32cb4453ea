import { Fragment, memo, type ReactNode } from 'react';
import { fieldsOf, type ExpandedField } from '../../../domain/catalogue';
import type { GroupDef } from '../../../domain/catalogue/types';
import type { Option } from '../../../domain/catalogue/options';
import type { FieldErrors } from '../../../domain/rules/collect';
import { isAnswered } from '../../../domain/rules/conditions';
import { answersReadBy, isShown, optionsFor } from '../../../domain/rules/visibility';
import { Button } from '../../ui/Button';
import { ConfirmationGate } from './ConfirmationGate';
import { TabsSlot, useChosenTab, type AnswerUpdate } from './fieldSlots';
import { FormField, sameErrors } from './FormField';
import { useAnswersOn } from './useApplication';
import { useBoundAnswers } from './boundAnswers';

interface FormGroupProps {
  group: GroupDef;
  errors: FieldErrors;
  loggedIn: boolean;
  /** Instances shown of a repeated group. */
  count: number;
  /** Adds an instance of this group (the handler is the page's, one for every group: it keeps its identity). */
  onAddAnother: (group: GroupDef) => void;
  addingAnother: boolean;
  /** Removes an instance added by mistake (any but the first). */
  onRemove?: (group: GroupDef, instance: number) => void;
  onChange: (update: AnswerUpdate) => void;
  /** A text area's text before it is committed on blur. */
  onDraft?: (key: string, value: string) => void;
}

/** One empty list for every field without options, so the memoised field sees the same props. */
const NO_OPTIONS: Option[] = [];

/**
 * One group of questions; a repeated group shows `count` instances and an add-another button.
 * It reads the answers it shows or is shown by (domain `answersReadBy`: its own, its conditions',
 * its dropdowns' controls) from the store, so a keystroke draws the groups that read the answer
 * typed, not the page's every group. Memoised for the page's own changes: a new validation with
 * the same messages for its questions leaves it as it was.
 */
export const FormGroup = memo(
  FormGroupView,
  (before, after) =>
    before.group === after.group &&
    before.loggedIn === after.loggedIn &&
    before.count === after.count &&
    before.addingAnother === after.addingAnother &&
    before.onAddAnother === after.onAddAnother &&
    before.onRemove === after.onRemove &&
    before.onChange === after.onChange &&
    before.onDraft === after.onDraft &&
    sameErrorsOn(answersReadBy(after.group), before.errors, after.errors),
);

/** Whether two validations gave the same messages for the given questions (all when null). */
function sameErrorsOn(keys: ReadonlySet<string> | null, before: FieldErrors, after: FieldErrors): boolean {
  if (before === after) return true;
  if (keys === null) return false;
  for (const key of keys) if (!sameErrors(before[key], after[key])) return false;
  return true;
}

function FormGroupView({ group, errors, loggedIn, count, onAddAnother, addingAnother, onRemove, onChange, onDraft }: FormGroupProps) {
  const answers = useAnswersOn(answersReadBy(group));
  const bound = useBoundAnswers(loggedIn);
  const instances = group.repeat ? Math.min(count, group.repeat.max) : 1;
  if (!fieldsOf(group, 1).some((field) => isShown(field, answers))) return null;
  const renderField = (field: ExpandedField) => (
    <FormField
      key={field.key}
      field={field}
      options={optionsFor(field, answers) ?? NO_OPTIONS}
      value={answers[field.key]}
      errors={errors[field.key]}
      loggedIn={loggedIn}
      // Only a lookup reads the other answers: every other field keeps its props while they change.
      answers={field.type === 'lookup' ? answers : undefined}
      onChange={onChange}
      onDraft={onDraft}
      bound={bound[field.key]}
    />
  );
  return (
    // A div, not a labelled section: thirty region landmarks would bury the page's real ones.
    <div className="form-group">
      {Array.from({ length: instances }, (_, i) => i + 1).map((instance) => {
        const fields = fieldsOf(group, instance).filter((field) => isShown(field, answers));
        if (fields.length === 0) return null;
        const title = group.repeat ? `${group.title} ${instance}` : group.title;
        const questions = group.tabs ? (
          <TabsSlot group={group.tabs} answers={answers} loggedIn={loggedIn} onChange={onChange}>
            {(keys) => fields.filter((field) => keys.includes(field.key)).map(renderField)}
          </TabsSlot>
        ) : (
          fields.map((field, index) => (
            <Fragment key={field.key}>
              {/* A block of the group (the mailing address, a second parent) gets its own heading. */}
              {field.section && field.section !== fields[index - 1]?.section && <h2 className="form-group__section">{field.section}</h2>}
              {renderField(field)}
            </Fragment>
          ))
        );
        return (
          <fieldset key={instance} className="form-group__instance">
            <legend className="form-group__title">
              {title}
            </legend>
            {instance === 1 && group.description && <p className="form-group__description">{group.description}</p>}
            {group.gate ? (
              <GroupGate group={group} loggedIn={loggedIn} answered={fields.some((f) => isAnswered(answers[f.key]))}>
                {questions}
              </GroupGate>
            ) : (
              questions
            )}
            {group.repeat && instance > 1 && onRemove && (
              <Button variant="secondary" className="form-group__remove" onClick={() => onRemove(group, instance)}>
                Remove {title}
              </Button>
            )}
          </fieldset>
        );
      })}
      {group.repeat && instances < group.repeat.max && isShown(fieldsOf(group, 1)[0]!, answers) && (
        <Button variant="secondary" loading={addingAnother} onClick={() => onAddAnother(group)}>
          {group.repeat.buttonLabel}
        </Button>
      )}
    </div>
  );
}

/** A group's gate, open when its questions hold answers or a tab of it was chosen before (the choice is kept on the server). */
function GroupGate({ group, loggedIn, answered, children }: { group: GroupDef; loggedIn: boolean; answered: boolean; children: ReactNode }) {
  // Here, not in every group: the stored choice is a query, read again on each render.
  const chosenTab = useChosenTab(group.tabs?.id, loggedIn);
  return (
    <ConfirmationGate gate={group.gate!} initiallyOpen={chosenTab !== null || answered}>
      {children}
    </ConfirmationGate>
  );
}
