/** @jsxRuntime automatic @jsxImportSource react */
// The pragma: the server loads this file through tsx, whose tsconfig (the tools') does not cover src/.
import { Fragment } from 'react';
import type { components } from '../../../../generated/api';
import { fieldsOf, groupsOfPage, type ExpandedField } from '../../../../domain/catalogue';
import { DEFAULT_NUMBER_OF_COMPONENTS, partnerConfig } from '../../../../domain/config';
import { pages } from '../../../../domain/catalogue/pages';
import { isAnswered } from '../../../../domain/rules/conditions';
import { formatFileSize, parseIsoDate, showPhone } from '../../../../domain/rules/formats';
import { shownLabel } from '../../../../domain/rules/choiceLabels';
import { isShown } from '../../../../domain/rules/visibility';

/*
 * The printed application, from its data alone: no hooks, no requests, no styles imported, so the
 * server renders the same component to HTML for the PDF copy (server/pdf/printHtml.ts) that the
 * print view shows in the browser. It imports only the domain and the generated types.
 */

export type ServiceView = components['schemas']['ServiceView'];

/** The print view's title: whose application it is. */
export const printTitle = (view: Pick<ServiceView, 'username'>) => `Application of ${view.username}`;

/** A stored value as an applicant would read it: the option's label, the file's name and size. */
function displayValue(field: ExpandedField, view: ServiceView): string {
  const value = view.answer[field.key];
  if (field.type === 'document') {
    const file = view.document_answer[field.key];
    return file ? `${file.file_name} (${formatFileSize(file.file_size)})` : '';
  }
  if (field.type === 'select' || field.type === 'radio') {
    // The catalogue's label, not one stored from a browser before the server wrote them (issue 28).
    return shownLabel(field.key, view.answer) || String(value);
  }
  if (field.type === 'phone') return showPhone(String(value));
  if (field.type === 'date') {
    // Read as a person writes a date (April 17, 2008), not as the form stores it.
    const date = parseIsoDate(String(value));
    if (date) return new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(date);
  }
  return String(value);
}

/** Consecutive fields of the same block, in order. */
function runsBySection(fields: ExpandedField[]): ExpandedField[][] {
  const runs: ExpandedField[][] = [];
  for (const field of fields) {
    const last = runs.at(-1);
    if (last && last[0]!.section === field.section) last.push(field);
    else runs.push([field]);
  }
  return runs;
}

function Answer({ field, view }: { field: ExpandedField; view: ServiceView }) {
  if (field.type === 'checkbox') {
    const checked = view.answer[field.key] === true;
    return (
      <li className="print__check">
        <span aria-hidden="true" className="print__mark">
          {checked ? '☒' : '☐'}
        </span>
        <span className="visually-hidden">{checked ? 'Checked: ' : 'Not checked: '}</span>
        {field.label}
      </li>
    );
  }
  return (
    <li className="print__answer">
      <span className="print__label">{field.label}</span>
      <span className="print__value">{displayValue(field, view)}</span>
    </li>
  );
}

/**
 * Every step one after another (spec/platform.md §1, §5): labelled plain values and checkbox marks,
 * no inputs, header, footer, navigation or buttons, and groups without answers left out. It marks
 * itself ready for a renderer that waits for it.
 */
export function PrintDocument({ view, landmark = 'main' }: { view: ServiceView; /** 'div' inside a page that has its own main (the staff console). */ landmark?: 'main' | 'div' }) {
  const Landmark = landmark;
  return (
    <Landmark className="print" data-print-ready="true">
      <h1>{partnerConfig.applicationTitle}</h1>
      <p className="print__applicant">Applicant: {view.username}</p>
      {pages.map((page) => (
        <section key={page.id} aria-labelledby={`print-${page.id}`} className="print__page">
          <h2 id={`print-${page.id}`}>{page.title}</h2>
          {groupsOfPage(page.id).flatMap((group) => {
            const instances = group.repeat ? Math.min(view.add_another[group.repeat.buttonId] ?? DEFAULT_NUMBER_OF_COMPONENTS, group.repeat.max) : 1;
            return Array.from({ length: instances }, (_, i) => i + 1).map((instance) => {
              const answered = fieldsOf(group, instance).filter(
                (field) => isShown(field, view.answer) && (field.type === 'document' ? Boolean(view.document_answer[field.key]) : isAnswered(view.answer[field.key])),
              );
              if (answered.length === 0) return null;
              return (
                <div key={`${group.id}-${instance}`} className="print__group">
                  <h3>{group.repeat ? `${group.title} ${instance}` : group.title}</h3>
                  {/* Each block of the group (the mailing address, a second parent) under its own heading. */}
                  {runsBySection(answered).map((run) => (
                    <Fragment key={run[0]!.key}>
                      {run[0]!.section && <h4>{run[0]!.section}</h4>}
                      <ul>
                        {run.map((field) => (
                          <Answer key={field.key} field={field} view={view} />
                        ))}
                      </ul>
                    </Fragment>
                  ))}
                </div>
              );
            });
          })}
        </section>
      ))}
    </Landmark>
  );
}
