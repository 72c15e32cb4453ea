import { useFormState } from './formState';
import { usePageTitle } from '../../lib/usePageTitle';
import { partnerConfig } from '../../../domain/config';
import { PdfCopy } from '../documents/PdfCopy';
import { Banner } from './Banner';

/** Shown once the application is submitted (spec/form.md §2), with the PDF copy to download. */
export function CompletionPage() {
  const { snapshot, answers } = useFormState();
  usePageTitle('Application Submitted');
  return (
    <>
      <Banner snapshot={snapshot} answers={answers} />
      <h1>Application Submitted</h1>
      <p>
        Your application to {partnerConfig.name} has been submitted. We will e-mail you at {snapshot.username ?? 'your address'} about
        next steps.
      </p>
      <PdfCopy />
    </>
  );
}
