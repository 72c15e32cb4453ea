import { useFormState } from '../app/formState';
import { usePageTitle } from '../app/usePageTitle';
import { partnerConfig } from '../config/partner';
import { Banner } from './Banner';

/** Shown once the application is submitted (spec/form.md §2). The PDF copy arrives with the documents work. */
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
    </>
  );
}
