import type { ReactNode } from 'react';
import { partnerConfig } from '../../../domain/config';
import { NO_FEE_MESSAGE } from '../../../domain/messages';
import { usePageTitle } from '../../lib/usePageTitle';
import { Banner } from './Banner';
import { useAnswers, useApplication } from './useApplication';

/**
 * Shown once the application is submitted (spec/form.md §2), with where it stands (`status`: under
 * review, then the released decision), the PDF copy to download (`pdfCopy`), and the materials
 * still needed with the recommenders asked (`materials`).
 */
export function CompletionPage({ pdfCopy, status, materials }: { pdfCopy: ReactNode; status?: ReactNode; materials?: ReactNode }) {
  const { snapshot } = useApplication();
  const answers = useAnswers();
  usePageTitle('Application Submitted');
  return (
    <>
      <Banner snapshot={snapshot} answers={answers} />
      <h1>Application Submitted</h1>
      {status}
      <p>
        Your application to {partnerConfig.name} has been submitted. We will e-mail you at {snapshot.username ?? 'your address'} about
        next steps.
      </p>
      <p>{NO_FEE_MESSAGE}</p>
      {pdfCopy}
      {materials}
    </>
  );
}
