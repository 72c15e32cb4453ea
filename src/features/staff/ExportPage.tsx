import { useState } from 'react';
import { usePageTitle } from '../../lib/usePageTitle';
import { exportUrl } from './api/admin';

/** The admin's export of submitted applications: a plain link per format, so any number of rows streams to disk. */
export function ExportPage() {
  usePageTitle('Export');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const backwards = from !== '' && to !== '' && to <= from;
  return (
    <>
      <h1>Export submitted applications</h1>
      <p>
        One row per submitted application and one column per question (each choice with its label in the <code>_desc</code> column beside it), UTF-8. Cells a spreadsheet
        would run as a formula start with an apostrophe. Every export is recorded in the audit log.
      </p>
      <fieldset className="staff-range">
        <legend>Submitted between (optional; days in UTC), to load only what is new</legend>
        <div className="field">
          <label className="field__label" htmlFor="export-from">
            From (this day included)
          </label>
          <input id="export-from" className="input input--outlined" type="date" value={from} onChange={(event) => setFrom(event.target.value)} />
        </div>
        <div className="field">
          <label className="field__label" htmlFor="export-to">
            Until (this day not included)
          </label>
          <input id="export-to" className="input input--outlined" type="date" value={to} onChange={(event) => setTo(event.target.value)} aria-describedby={backwards ? 'export-to-error' : undefined} aria-invalid={backwards || undefined} />
          {backwards && (
            <span id="export-to-error" className="field__error">
              <span className="visually-hidden">Error: </span>The end of the range must be after its start.
            </span>
          )}
        </div>
      </fieldset>
      {!backwards && (
        <p className="card__actions">
          <a className="button button--primary" href={exportUrl('csv', from, to)} download>
            Download CSV
          </a>
          <a className="button button--secondary" href={exportUrl('jsonl', from, to)} download>
            Download JSON Lines
          </a>
        </p>
      )}
    </>
  );
}
