import { useQuery } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import type { components } from '../../../../generated/api';
import { ROLE_NAMES } from '../../../../domain/recommenders';
import { fieldErrorsOf } from '../../../lib/api/errors';
import { Button } from '../../../ui/Button';
import { FileChooser } from '../../../ui/FileChooser';
import { describedBy, Field, invalid } from '../../../ui/Field';
import { materialUrl, materialViewUrl } from './api/checklist';
import { checklistQuery, useAttachMaterial, useMarkChecklistItem, useRemoveMaterial } from './api/checklist';
import { DocumentViewer } from '../kit/DocumentViewer';
import { whenText } from '../paths';

type Checklist = components['schemas']['Checklist'];
type ChecklistItem = Checklist['items'][number];
type Material = ChecklistItem['materials'][number];

const STATUS_TEXT: Record<ChecklistItem['status'], string> = { awaiting: 'Awaiting', received: 'Received', waived: 'Waived' };
const FILE_STATUS_TEXT: Record<Material['status'], string> = { unprocessed: 'being converted', in_progress: 'being converted', completed: 'PDF', failed: 'could not be converted' };

function ItemMarks({ applicationId, item }: { applicationId: string; item: ChecklistItem }) {
  const mark = useMarkChecklistItem(applicationId);
  const [waiving, setWaiving] = useState(false);
  const [reason, setReason] = useState('');
  const errors = fieldErrorsOf(mark.error).reason;
  const id = `waive-${item.key}`;
  if (item.status !== 'awaiting') {
    // A form document converted is the applicant's, and a file attached counts until it is removed: no mark to take back.
    const byFile = item.materials.some((file) => file.status === 'completed' && file.at === item.at);
    if (item.by === 'the applicant' || byFile) return null;
    return (
      <Button variant="text" loading={mark.isPending} onClick={() => mark.mutate({ key: item.key, status: 'awaiting' })} aria-label={`Mark ${item.label} awaiting again`}>
        Awaiting again
      </Button>
    );
  }
  return (
    <>
      <Button variant="secondary" loading={mark.isPending} onClick={() => mark.mutate({ key: item.key, status: 'received' })} aria-label={`Mark ${item.label} received`}>
        Received
      </Button>{' '}
      {!waiving ? (
        <Button variant="text" onClick={() => setWaiving(true)} aria-label={`Waive ${item.label}`}>
          Waive
        </Button>
      ) : (
        <form
          className="staff-checklist__waive"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            mark.mutate({ key: item.key, status: 'waived', reason }, { onSuccess: () => setWaiving(false) });
          }}
        >
          <Field id={id} label={`Why ${item.label} is waived`} errors={errors}>
            <input id={id} className="input input--outlined" value={reason} maxLength={1000} onChange={(event) => setReason(event.target.value)} aria-invalid={invalid(errors)} aria-describedby={describedBy({ id, errors })} />
          </Field>
          <Button type="submit" variant="secondary" loading={mark.isPending}>
            Waive it
          </Button>
        </form>
      )}
      {mark.isError && !errors && <span role="alert"> {mark.error.message}</span>}
    </>
  );
}

/** A file that came by post (scanned) or by e-mail, attached to its item: uploaded, converted, and then the item is received. */
function AttachFile({ applicationId, item }: { applicationId: string; item: ChecklistItem }) {
  const attach = useAttachMaterial(applicationId);
  return (
    <FileChooser
      id={`attach-${item.key}`}
      label={`Attach a file for ${item.label} (PDF, DOCX, PNG or JPEG)`}
      pending={attach.isPending}
      error={attach.isError ? attach.error.message : null}
      onFile={(file, contentType) => attach.mutate({ key: item.key, file, contentType })}
    />
  );
}

/** What a recommender's form said with their letter. */
function RecommendationDetails({ recommendation }: { recommendation: NonNullable<Material['recommendation']> }) {
  return (
    <dl className="staff-recommendation">
      <dt>Recommender</dt>
      <dd>
        {recommendation.name} ({ROLE_NAMES[recommendation.role]})
      </dd>
      <dt>How they know the applicant</dt>
      <dd>{recommendation.relationship}</dd>
      <dt>For</dt>
      <dd>{recommendation.known_for}</dd>
      {Object.entries(recommendation.ratings).map(([scale, point]) => (
        <Fragment key={scale}>
          <dt>{scale}</dt>
          <dd>{point}</dd>
        </Fragment>
      ))}
    </dl>
  );
}

function ItemFiles({ applicationId, item, shown, show }: { applicationId: string; item: ChecklistItem; shown: string | null; show: (material: string | null) => void }) {
  const remove = useRemoveMaterial(applicationId);
  if (item.materials.length === 0) return null;
  return (
    <ul className="staff-checklist__files" aria-label={`Files for ${item.label}`}>
      {item.materials.map((file) => (
        <li key={file.id}>
          {file.status === 'completed' ? (
            <>
              <a href={materialUrl(applicationId, file.id)} download>
                {file.file_name} (PDF)
              </a>{' '}
              <Button
                variant="secondary"
                aria-expanded={shown === file.id}
                aria-controls="checklist-file-shown"
                aria-label={`${shown === file.id ? 'Hide' : 'Read here'}: ${file.file_name}`}
                onClick={() => show(shown === file.id ? null : file.id)}
              >
                {shown === file.id ? 'Hide' : 'Read here'}
              </Button>
            </>
          ) : (
            <span>
              {file.file_name} ({FILE_STATUS_TEXT[file.status]}
              {file.message ? `: ${file.message}` : ''})
            </span>
          )}{' '}
          <span className="staff-decision__by">
            {file.recommendation ? 'sent by' : 'attached by'} {file.by}, {whenText(file.at)}
          </span>{' '}
          {file.recommendation && <RecommendationDetails recommendation={file.recommendation} />}
          <Button variant="text" loading={remove.isPending && remove.variables === file.id} onClick={() => remove.mutate(file.id)} aria-label={`Remove ${file.file_name}`}>
            Remove
          </Button>
        </li>
      ))}
      {remove.isError && <li role="alert">{remove.error.message}</li>}
    </ul>
  );
}

/** What a submitted application still needs (issue 31): each item awaiting, received or waived, the files that came for it, and staff's marks. */
export function ChecklistPanel({ applicationId, checklist: read }: { applicationId: string; checklist: Checklist }) {
  const { data: checklist } = useQuery(checklistQuery(applicationId, read));
  const [shown, setShown] = useState<string | null>(null);
  const shownFile = checklist.items.flatMap((item) => item.materials).find((file) => file.id === shown && file.status === 'completed');
  return (
    <section aria-labelledby="checklist-title" className="staff-notes">
      <h2 id="checklist-title">Checklist</h2>
      <p role="status">{checklist.complete ? 'Complete: nothing is awaited.' : `${checklist.items.filter((item) => item.status === 'awaiting').length} of ${checklist.items.length} still awaited.`}</p>
      <ul className="staff-checklist">
        {checklist.items.map((item) => (
          <li key={item.key}>
            <strong>{item.label}</strong>: {STATUS_TEXT[item.status]}
            {item.by && ` (${item.by}${item.at ? `, ${whenText(item.at)}` : ''}${item.reason ? `: ${item.reason}` : ''})`}{' '}
            <ItemMarks applicationId={applicationId} item={item} />
            <ItemFiles applicationId={applicationId} item={item} shown={shown} show={setShown} />
            <AttachFile applicationId={applicationId} item={item} />
          </li>
        ))}
      </ul>
      <div id="checklist-file-shown">{shownFile && <DocumentViewer key={shownFile.id} url={materialViewUrl(applicationId, shownFile.id)} title={shownFile.file_name} />}</div>
    </section>
  );
}
