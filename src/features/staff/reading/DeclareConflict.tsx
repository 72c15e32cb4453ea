import { MutationError } from '../../../ui/MutationError';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button } from '../../../ui/Button';
import { Field } from '../../../ui/Field';
import { Modal } from '../../../ui/Modal';
import { useDeclareConflict } from './api/applications';
import { listPath } from '../paths';

/**
 * "I have a conflict of interest": after a confirmation, the application is no longer shown to this
 * member (only an administrator withdraws it), and they are taken back to their list without it.
 */
export function DeclareConflict({ applicationId, list }: { applicationId: string; list: URLSearchParams }) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const declare = useDeclareConflict(applicationId);
  const navigate = useNavigate();
  return (
    <>
      <Button variant="text" onClick={() => setOpen(true)}>
        I have a conflict of interest
      </Button>
      <Modal
        open={open}
        onClose={() => setOpen(false)}
        header="Conflict of interest"
        size="s"
        footer={
          <>
            <Button loading={declare.isPending} onClick={() => declare.mutate(reason, { onSuccess: () => void navigate(listPath(list), { state: { conflictDeclared: true } }) })}>
              Declare it and leave
            </Button>
            <Button variant="secondary" onClick={() => setOpen(false)}>
              Cancel
            </Button>
          </>
        }
      >
        <p>You will no longer see this application anywhere in the console. Only an administrator can withdraw a conflict of interest.</p>
        <Field id="conflict-reason" label="Why (optional, for the administrators)">
          <textarea id="conflict-reason" className="input input--outlined" rows={2} maxLength={500} value={reason} onChange={(event) => setReason(event.target.value)} />
        </Field>
        <MutationError error={declare.error} />
      </Modal>
    </>
  );
}
