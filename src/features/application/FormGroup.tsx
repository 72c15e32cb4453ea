import { Fragment } from 'react';
import { fieldsOf, type ExpandedField } from '../../../domain/catalogue';
import type { GroupDef } from '../../../domain/catalogue/types';
import type { Option } from '../../../domain/catalogue/options';
import type { FieldErrors } from '../../../domain/rules/collect';
import { isAnswered } from '../../../domain/rules/conditions';
import { isShown, optionsFor } from '../../../domain/rules/visibility';
import type { StudentAnswers } from '../../lib/navState';
import { Button } from '../../ui/Button';
import { ConfirmationGate } from './ConfirmationGate';
import { TabsSlot, useChosenTab, type AnswerUpdate } from './fieldSlots';
import { FormField } from './FormField';

interface FormGroupProps {
  group: GroupDef;
  answers: StudentAnswers;
  errors: FieldErrors;
  loggedIn: boolean;
  /** Instances shown of a repeated group. */
  count: number;
  onAddAnother: () => void;
  addingAnother: boolean;
  /** Removes an instance added by mistake (any but the first). */
  onRemove?: (instance: number) => void;
  onChange: (update: AnswerUpdate) => void;
  /** A text area's text before it is committed on blur. */
  onDraft?: (key: string, value: string) => void;
}

/** One group of questions; a repeated group shows `count` instances and an add-another button. */
/** One empty list for every field without options, so the memoised field sees the same props. */
const NO_OPTIONS: Option[] = [];

export function FormGroup({ group, answers, errors, loggedIn, count, onAddAnother, addingAnother, onRemove, onChange, onDraft }: FormGroupProps) {
  const instances = group.repeat ? Math.min(count, group.repeat.max) : 1;
  // A gate around tabs opened before stays open: the chosen tab is kept on the server.
  const chosenTab = useChosenTab(group.tabs?.id, loggedIn);
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
              <ConfirmationGate gate={group.gate} initiallyOpen={chosenTab !== null || fields.some((f) => isAnswered(answers[f.key]))}>
                {questions}
              </ConfirmationGate>
            ) : (
              questions
            )}
            {group.repeat && instance > 1 && onRemove && (
              <Button variant="secondary" className="form-group__remove" onClick={() => onRemove(instance)}>
                Remove {title}
              </Button>
            )}
          </fieldset>
        );
      })}
      {group.repeat && instances < group.repeat.max && isShown(fieldsOf(group, 1)[0]!, answers) && (
        <Button variant="secondary" loading={addingAnother} onClick={onAddAnother}>
          {group.repeat.buttonLabel}
        </Button>
      )}
    </div>
  );
}
