/** @jsxRuntime automatic @jsxImportSource react */
// The pragma: the server loads this file through tsx, whose tsconfig (the tools') does not cover views/.
import { Fragment } from 'react';
import type { components } from '../../generated/api';
import { fieldByKey, fieldsOf, groupsOfPage, type ExpandedField } from '../../domain/catalogue';
import { DEFAULT_NUMBER_OF_COMPONENTS, partnerConfig } from '../../domain/config';
import { pages } from '../../domain/catalogue/pages';
import { isAnswered } from '../../domain/rules/conditions';
import { formatFileSize, longDateUtc, parseIsoDate, showPhone } from '../../domain/rules/formats';
import { shownLabel } from '../../domain/rules/choiceLabels';
import { isShown } from '../../domain/rules/visibility';
import { legalNameOf } from '../../domain/applicant';
import { pageStyle, SHEET } from './pageStyle';

/*
 * The application as a document, from its data alone: no hooks, no requests, no styles imported.
 * The browser's print view and the console's reader show it, and the server renders the same
 * component to HTML for the PDF copy (server/pdf/printPage.ts). It imports only the domain and the
 * generated types.
 */

export type ServiceView = components['schemas']['ServiceView'];

/** One attached document as the PDF copy adds it: a page of its own for each of its pages. */
export interface AttachmentSheets {
  /** The question it answers, as the form names it. */
  question: string;
  fileName: string;
  pages: number;
}


/** Who the application is from: the legal name answered, else the account's e-mail. */
const applicantNameOf = (view: Pick<ServiceView, 'username' | 'answer'>) => legalNameOf(view.answer) || view.username;

const numberText = (view: Pick<ServiceView, 'application_number'>) =>
  view.application_number === null ? 'Application not yet numbered' : `Application ${view.application_number}`;

const submittedText = (view: Pick<ServiceView, 'submitted_at'>) =>
  view.submitted_at ? `Submitted ${longDateUtc(new Date(view.submitted_at))}` : 'Not submitted';

/** The document's title (the tab, the PDF's title): whose application it is and its number. */
export const documentTitle = (view: Pick<ServiceView, 'username' | 'answer' | 'application_number'>) =>
  `${numberText(view)}: ${applicantNameOf(view)}`;

/** What the top of every printed page says: name, number and submission date. */
const pageHeaderText = (view: ServiceView) => `${applicantNameOf(view)} · ${numberText(view)} · ${submittedText(view)}`;

/**
 * The printed page of this application (views/document/pageStyle.ts): the header every page
 * carries and "Page N of M". A stylesheet of its own, not a <style> in the document: the pages
 * that show it forbid inline styles (CSP style-src 'self'), so the browser adopts it as a
 * constructed stylesheet (src/lib/useAdoptedStyle.ts) and the PDF printer puts it in its page's head.
 */
export const printedPageStyle = (view: ServiceView) => pageStyle(pageHeaderText(view));

/** Whether a phone of the application is from abroad: shown grouped as its country writes it once the numbering plans are in. */
export const hasPhoneFromAbroad = (view: ServiceView) =>
  Object.entries(view.answer).some(([key, value]) => typeof value === 'string' && value.startsWith('+') && fieldByKey.get(key)?.type === 'phone');

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
    if (date) return longDateUtc(date);
  }
  return String(value);
}

/** Consecutive fields of the same block, in order. */
function runsBySection(fields: readonly ExpandedField[]): ExpandedField[][] {
  const runs: ExpandedField[][] = [];
  for (const field of fields) {
    const last = runs.at(-1);
    if (last && last[0]!.section === field.section) last.push(field);
    else runs.push([field]);
  }
  return runs;
}

/**
 * Past this many characters an answer takes the whole width of the page, not one column: about
 * two lines of a printed column, so a question and its answer of a line or two share a row with
 * two others (a maximal application fits in six pages, issue 48).
 */
const WIDE_AFTER_CHARS = 80;

function Answer({ field, view }: { field: ExpandedField; view: ServiceView }) {
  if (field.type === 'checkbox') {
    const checked = view.answer[field.key] === true;
    return (
      <li className={field.label.length > WIDE_AFTER_CHARS ? 'print__check print__check--wide' : 'print__check'}>
        <span aria-hidden="true" className="print__mark">
          {checked ? '☒' : '☐'}
        </span>
        <span className="visually-hidden">{checked ? 'Checked: ' : 'Not checked: '}</span>
        {field.label}
      </li>
    );
  }
  const value = displayValue(field, view);
  const wide = field.type === 'textarea' || value.length > WIDE_AFTER_CHARS || field.label.length > WIDE_AFTER_CHARS;
  return (
    <li className={wide ? 'print__answer print__answer--wide' : 'print__answer'}>
      <span className="print__label">{field.label}</span>
      <span className="print__value">{value}</span>
    </li>
  );
}

/**
 * The pages an attached document takes in the PDF copy: a caption (the first page's a heading, so
 * the outline and a screen reader list each document) over an empty sheet the printer then fills
 * with the document's page (server/pdf/pdfCopy.ts). Each sheet is exactly one printed page.
 */
/** The caption of an attached document's page (`page` from 0): also the alternative text of the page in the tagged PDF. */
export const attachmentCaption = (attachment: AttachmentSheets, page: number) =>
  `Attachment for ${attachment.question}: ${attachment.fileName}${attachment.pages > 1 ? ` (page ${page + 1} of ${attachment.pages})` : ''}`;

function Attachment({ attachment, index }: { attachment: AttachmentSheets; index: number }) {
  return (
    <section aria-labelledby={`attachment-${index}`} className="print__attachment">
      {Array.from({ length: attachment.pages }, (_, page) => {
        const caption = attachmentCaption(attachment, page);
        return (
          <div key={page} className="print__sheet" style={{ height: `${SHEET.heightIn}in` }}>
            {page === 0 ? (
              <h2 id={`attachment-${index}`} className="print__caption" style={{ height: `${SHEET.captionIn}in` }}>
                {caption}
              </h2>
            ) : (
              <p className="print__caption" style={{ height: `${SHEET.captionIn}in` }}>
                {caption}
              </p>
            )}
          </div>
        );
      })}
    </section>
  );
}

/**
 * Every step one after another (spec/platform.md §1, §5): labelled plain values and checkbox marks,
 * no inputs, navigation or buttons, and groups without answers left out. Who it is from, its number
 * and date open it and head every printed page with "Page N of M"; a group's statement (the
 * certification the applicant agreed to) prints above its answers. It marks itself ready for a
 * renderer that waits for it.
 */
export function ApplicationDocument({
  view,
  landmark = 'main',
  attachments = [],
}: {
  view: ServiceView;
  /** 'div' inside a page that has its own main (the staff console). */
  landmark?: 'main' | 'div';
  /** The PDF copy's attached documents (the browser's views list them as answers only). */
  attachments?: readonly AttachmentSheets[];
}) {
  const Landmark = landmark;
  return (
    <Landmark className="print" data-print-ready="true">
      <h1>{partnerConfig.applicationTitle}</h1>
      <dl className="print__identity">
        <div>
          <dt>Applicant</dt>
          <dd>{applicantNameOf(view)}</dd>
        </div>
        <div>
          <dt>Application number</dt>
          <dd>{view.application_number ?? 'Not yet numbered'}</dd>
        </div>
        <div>
          <dt>Submitted</dt>
          <dd>{view.submitted_at ? longDateUtc(new Date(view.submitted_at)) : 'Not submitted'}</dd>
        </div>
        <div>
          <dt>Account</dt>
          <dd>{view.username}</dd>
        </div>
      </dl>
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
              // What the applicant agreed to prints with the agreement: "I agree to the above statements." alone says nothing.
              const statement = answered.some((field) => field.type === 'checkbox') ? group.description : undefined;
              return (
                <div key={`${group.id}-${instance}`} className="print__group">
                  <h3>{group.repeat ? `${group.title} ${instance}` : group.title}</h3>
                  {statement && <p className="print__statement">{statement}</p>}
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
      {attachments.map((attachment, index) => (
        <Attachment key={index} attachment={attachment} index={index} />
      ))}
    </Landmark>
  );
}
