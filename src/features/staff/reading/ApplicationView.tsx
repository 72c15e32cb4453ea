import { MutationError } from '../../../ui/MutationError';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { formatFileSize } from '../../../../domain/rules/formats';
import { usePageTitle } from '../../../lib/usePageTitle';
import { Button } from '../../../ui/Button';
import { Loading } from '../../../ui/Loading';
import { ApplicationDocument, hasPhoneFromAbroad, printedPageStyle, type ServiceView } from '../../../../views/document/ApplicationDocument';
import { usePrintedDocument } from '../../../lib/useAdoptedStyle';
import '../../../../views/document/document.css';
import { documentUrl, documentViewUrl, pdfCopyUrl, useRemakePdfCopy } from './api/applications';
import { staffApplicationQuery } from '../kit/applicationCache';
import { listPath, whenText } from '../paths';
import { ApplicationNotes } from './ApplicationNotes';
import { DecisionPanel } from '../decisions/DecisionPanel';
import { CorrectionsPanel } from '../materials/CorrectionsPanel';
import { WithdrawalPanel } from '../records/WithdrawalPanel';
import { MergedPanel } from '../records/MergedPanel';
import { PersonRequestPanel } from '../records/PersonRequestPanel';
import { staffRoleCovers } from '../../../../domain/staff';
import { useStaffMe } from '../session/SignedInConsole';
import { ReaderNav } from './ReaderNav';
import { DeclareConflict } from './DeclareConflict';
import { DocumentViewer } from '../kit/DocumentViewer';
import { ReviewPanel } from '../review/ReviewPanel';
import { WorkflowPanel } from '../review/WorkflowPanel';
import { ChecklistPanel } from '../materials/ChecklistPanel';

const EVENT_TEXT: Record<string, string> = {
  account_created: 'Account created',
  confirmed: 'E-mail confirmed',
  signed_in: 'Signed in',
  started: 'Application started',
  validating: 'Checked for missing answers',
  submitted: 'Submitted',
};
const PDF_TEXT: Record<string, string> = {
  COMPLETED: 'Ready',
  FAILED: 'Failed',
  IN_PROGRESS: 'Being made',
  UNPROCESSED: 'Waiting to be made',
  NOT_ANSWERED: 'None (not submitted)',
};

/** One application: the document the PDF copy is made of, its documents read in the page, the copy, what happened when, its bin and readers, the reviews, the decision and the staff's notes. */
export function ApplicationView() {
  const { id = '' } = useParams();
  // The list it was opened from (its filters, search, sort and page), for next / previous and back.
  const [list] = useSearchParams();
  const application = useQuery(staffApplicationQuery(id));
  // The document read in the page (its key), for this application only: J / K to another closes it.
  const [shownFor, setShownFor] = useState<{ id: string; key: string } | null>(null);
  const shown = shownFor?.id === id ? shownFor.key : null;
  const setShown = (key: string | null) => setShownFor(key ? { id, key } : null);
  const shownDocument = application.data?.documents.find((doc) => doc.key === shown && doc.status === 'completed');
  const remake = useRemakePdfCopy(id);
  const me = useStaffMe();
  const name = application.data ? [application.data.view.answer.first_name, application.data.view.answer.last_name].filter(Boolean).join(' ') || application.data.view.username : 'Application';
  usePageTitle(name);

  if (application.isPending) return <Loading label="Loading the application" />;
  if (application.isError) {
    return (
      <>
        <h1>Application</h1>
        <p role="alert">{application.error.message}</p>
        <Link to={listPath(list)}>Back to the applications</Link>
      </>
    );
  }
  const { data } = application;
  return (
    <>
      <ReaderNav id={id} list={list} />
      <h1>{name}</h1>
      <p>
        {data.view.username} · {data.status === 'submitted' ? `Submitted ${whenText(data.submitted_at)}` : `Not submitted (${data.status})`}
        {data.view.application_number !== null && ` · Application ${data.view.application_number}`}
      </p>
      {/* Opened lately by another member (the audit log's views): two readers know before both review or decide (issue 51 §4). */}
      {data.open_by.length > 0 && (
        <p className="staff-open-by" role="status">
          Someone else has this open: {data.open_by.map((other) => `${other.email} (opened ${whenText(other.at)})`).join(', ')}.
        </p>
      )}
      {/* A row of actions, not a paragraph: the conflict's dialog may not sit inside a <p>. */}
      <div className="staff-actions">
        {/* Prints the document alone (staff.css), headed and numbered page by page like the PDF copy. */}
        <Button variant="secondary" onClick={() => window.print()}>
          Print the application
        </Button>
        <DeclareConflict applicationId={data.id} list={list} />
      </div>
      <div className="staff-columns">
        <section aria-labelledby="documents-title">
          <h2 id="documents-title">Documents</h2>
          {data.documents.length === 0 ? (
            <p>No documents.</p>
          ) : (
            <ul className="staff-list">
              {data.documents.map((doc) => (
                <li key={doc.key}>
                  {doc.status === 'completed' ? (
                    <>
                      <a href={documentUrl(data.id, doc.key)} download>
                        {doc.label}: {doc.file_name} ({formatFileSize(doc.file_size)}, PDF)
                      </a>{' '}
                      <Button
                        variant="secondary"
                        aria-expanded={shown === doc.key}
                        aria-controls="document-shown"
                        aria-label={`${shown === doc.key ? 'Hide' : 'Read here'}: ${doc.label}`}
                        onClick={() => setShown(shown === doc.key ? null : doc.key)}
                      >
                        {shown === doc.key ? 'Hide' : 'Read here'}
                      </Button>
                    </>
                  ) : (
                    <span>
                      {doc.label}: {doc.file_name} ({doc.status === 'failed' ? 'could not be converted' : 'being converted'})
                    </span>
                  )}
                </li>
              ))}
            </ul>
          )}
          <div id="document-shown">{shownDocument && <DocumentViewer key={`${data.id}/${shownDocument.key}`} url={documentViewUrl(data.id, shownDocument.key)} title={shownDocument.label} />}</div>
          <h2>PDF copy</h2>
          <p>
            Status: {PDF_TEXT[data.pdf.status] ?? data.pdf.status}
            {data.pdf.message ? ` (${data.pdf.message})` : ''}
          </p>
          {data.pdf.status === 'COMPLETED' && (
            <p>
              <a className="button button--secondary" href={pdfCopyUrl(data.id)} download>
                Download the PDF copy
              </a>
            </p>
          )}
          {data.status === 'submitted' && (data.pdf.status === 'FAILED' || data.pdf.status === 'NOT_ANSWERED') && (
            <p>
              <Button variant="secondary" loading={remake.isPending} onClick={() => remake.mutate()}>
                Make the PDF copy again
              </Button>
            </p>
          )}
          <MutationError error={remake.error} />
        </section>
        <section aria-labelledby="timeline-title">
          <h2 id="timeline-title">Timeline</h2>
          <ol className="staff-timeline">
            {data.timeline.map((entry, index) => (
              <li key={`${entry.event}-${index}`}>
                <time dateTime={entry.at}>{whenText(entry.at)}</time>: {EVENT_TEXT[entry.event] ?? entry.event}
              </li>
            ))}
          </ol>
          {/* The record's whole history, every view, change and disclosure, is the audit log's: an administrator's (issue 51 §4). */}
          {staffRoleCovers(me.role, 'admin') && (
            <p>
              <Link to={`/staff/audit?application=${data.id}`}>Its whole history in the audit log</Link>
            </p>
          )}
        </section>
      </div>
      {data.checklist && <ChecklistPanel applicationId={data.id} checklist={data.checklist} />}
      <WorkflowPanel application={data} />
      <ReviewPanel key={data.id} application={data} />
      <DecisionPanel applicationId={data.id} submitted={data.status === 'submitted'} decision={data.decision} />
      <CorrectionsPanel application={data} />
      <WithdrawalPanel application={data} />
      <MergedPanel application={data} />
      {staffRoleCovers(me.role, 'admin') && <PersonRequestPanel applicationId={data.id} />}
      <ApplicationNotes applicationId={data.id} notes={data.notes} />
      <section aria-label="Answers" className="staff-answers">
        <PrintedAnswers view={data.view} />
      </section>
    </>
  );
}

/** The answers as the PDF copy prints them: the browser's print of this page carries the same page header and numbers. */
function PrintedAnswers({ view }: { view: ServiceView }) {
  usePrintedDocument(printedPageStyle(view), hasPhoneFromAbroad(view));
  return <ApplicationDocument view={view} landmark="div" />;
}
