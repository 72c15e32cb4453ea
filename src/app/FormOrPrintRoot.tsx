import { useLocation } from 'react-router-dom';
import { PrintView } from '../features/print/PrintView';
import { FormRoot } from './FormRoot';

/** A `service_token` on load turns the form routes into the service user's print view (spec/platform.md §1). */
export function FormOrPrintRoot() {
  const token = new URLSearchParams(useLocation().search).get('service_token');
  return token ? <PrintView token={token} /> : <FormRoot />;
}
