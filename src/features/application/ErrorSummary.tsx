import { useEffect, useRef } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { fieldByKey, pageOfKey } from '../../../domain/catalogue';
import type { FieldErrors } from '../../../domain/rules/collect';

const ERROR_SUMMARY_HEADING = "We're missing some information!";
const ERROR_SUMMARY_TEXT =
  'The links below show what needs to be completed. Missing items appear in red on each page. Please fix them and resubmit.';

/** Moves focus to a question: the input itself, or the first option of a radio group. */
export function focusQuestion(key: string): boolean {
  const target = document.getElementById(key);
  if (!target) return false;
  const focusable = target.matches('input, select, textarea') ? target : target.querySelector<HTMLElement>('input, select, textarea');
  (focusable ?? target).focus();
  // The label or legend belongs in view with the control (GOV.UK's error summary does the same).
  (target.closest('.field') ?? target).scrollIntoView({ block: 'center' });
  return true;
}

/**
 * What tells one question from another with the same words (two 'Please explain.'): the question
 * it follows up (the one its display depends on), else its group.
 */
function contextOf(key: string): string | undefined {
  const field = fieldByKey.get(key);
  if (!field) return undefined;
  const parent = field.showWhen?.[0] && fieldByKey.get(field.showWhen[0].valueKey);
  return parent?.label ?? field.group.title;
}

/**
 * The error summary (spec/form.md §2): shown while validating, at the top of main. It takes focus
 * when a page opens with it (after Save, Submit or a step link), never while the applicant types:
 * a field turning invalid again must not pull the rest of the typing away from it.
 * Messages are grouped by question, each a link to '/<page>#<questionKey>'.
 */
export function ErrorSummary({ errors }: { errors: FieldErrors }) {
  const ref = useRef<HTMLDivElement>(null);
  const count = Object.keys(errors).length;
  const { key: navigation } = useLocation();
  useEffect(() => {
    if (count > 0) ref.current?.focus();
  }, [navigation]); // eslint-disable-line react-hooks/exhaustive-deps -- once per page opened, with the errors it opened with
  useEffect(() => {
    if (!import.meta.env.DEV) return;
    for (const key of Object.keys(errors)) if (!pageOfKey(key)) console.warn(`Error summary: the key ${key} is not mapped to a page`);
  }, [errors]);
  if (count === 0) return null;
  // A link text that would repeat another says which question it is.
  const texts = Object.values(errors).map((messages) => messages.join(' '));
  const repeated = new Set(texts.filter((text, index) => texts.indexOf(text) !== index));
  return (
    <div ref={ref} className="error-summary" tabIndex={-1} role="region" aria-labelledby="error-summary-title">
      <h2 id="error-summary-title" className="error-summary__title">
        {ERROR_SUMMARY_HEADING}
      </h2>
      <p>{ERROR_SUMMARY_TEXT}</p>
      <ul className="error-summary__list">
        {Object.entries(errors).map(([key, messages]) => {
          const page = pageOfKey(key);
          const question = fieldByKey.get(key);
          const text = messages.join(' ');
          const context = repeated.has(text) ? contextOf(key) : undefined;
          const linkText = context ? `${text} (${context})` : text;
          return (
            <li key={key}>
              {page ? (
                <Link
                  to={`/${page}#${key}`}
                  onClick={() => {
                    // Same page: move focus now; another page focuses it after it renders (FormPage).
                    if (window.location.pathname === `/${page}`) setTimeout(() => focusQuestion(key));
                  }}
                >
                  {linkText}
                </Link>
              ) : (
                // An unmapped key shows plain text (and warns the developer).
                <span>{linkText}</span>
              )}
              {question && !context && <span className="visually-hidden"> ({question.group.title})</span>}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
