import { DataTable } from '../../../ui/DataTable';
import { MutationError } from '../../../ui/MutationError';
import { SignInRulesSection } from './SignInRulesSection';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { fieldErrorsOf } from '../../../lib/api/errors';
import { usePageTitle } from '../../../lib/usePageTitle';
import { Button } from '../../../ui/Button';
import { RadioGroup } from '../../../ui/RadioGroup';
import { TextInput } from '../../../ui/TextInput';
import { Loading } from '../../../ui/Loading';
import { Modal } from '../../../ui/Modal';
import type { components } from '../../../../generated/api';
import { inviteStaff, removeStaff, staffListQuery, useChangeStaffRole } from './api/admin';
import { useStaffMe } from '../session/SignedInConsole';
import { whenText } from '../paths';

type StaffRole = components['schemas']['StaffRole'];

const ROLES: { value: StaffRole; label: string }[] = [
  { value: 'reader', label: 'Reader: reads and downloads applications' },
  { value: 'decider', label: 'Decider: a reader who also decides applications' },
  { value: 'admin', label: 'Administrator: also exports, reads the audit log and manages staff' },
];
const ROLE_NAMES: Record<StaffRole, string> = { reader: 'Reader', decider: 'Decider', admin: 'Administrator' };

/** The office's staff, and invitations: the admin hands the one-time link over (it is not e-mailed). */
export function PeoplePage() {
  usePageTitle('Staff');
  const queryClient = useQueryClient();
  const people = useQuery(staffListQuery);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<StaffRole>('reader');
  const invite = useMutation({
    mutationFn: () => inviteStaff({ email, role }),
    onSuccess: () => {
      setEmail('');
      void queryClient.invalidateQueries({ queryKey: staffListQuery.queryKey });
    },
  });
  const fieldErrors = fieldErrorsOf(invite.error);
  const me = useStaffMe();
  const [leaving, setLeaving] = useState<{ id: string; email: string } | null>(null);
  const [changing, setChanging] = useState<{ id: string; email: string; role: StaffRole } | null>(null);
  const changeRole = useChangeStaffRole();
  const remove = useMutation({
    mutationFn: (id: string) => removeStaff(id),
    onSettled: () => {
      setLeaving(null);
      void queryClient.invalidateQueries({ queryKey: staffListQuery.queryKey });
    },
  });
  return (
    <>
      <h1>Staff</h1>
      <section aria-labelledby="invite-title">
        <h2 id="invite-title">Invite someone</h2>
        <form
          noValidate
          onSubmit={(event: FormEvent) => {
            event.preventDefault();
            invite.mutate();
          }}
        >
          <TextInput id="invite-email" label="E-mail" value={email} onChange={setEmail} errors={fieldErrors?.email} autoComplete="off" inputMode="email" required />
          <RadioGroup id="invite-role" legend="Role" options={ROLES} value={role} onChange={(value) => setRole(value as StaffRole)} />
          <Button type="submit" loading={invite.isPending}>
            Make a set-up link
          </Button>
        </form>
        <MutationError error={invite.error} fields={fieldErrors} />
        {invite.data && (
          <div className="notice notice--success" role="status">
            <p>
              Set-up link for {invite.data.email} ({invite.data.role}), valid until {whenText(invite.data.expires_at)}. Give it to them in person or over a channel you trust: whoever opens it
              first sets the account up.
            </p>
            <label className="field__label" htmlFor="invite-link">
              Set-up link
            </label>
            <input id="invite-link" className="input input--outlined" readOnly value={invite.data.setup_url} onFocus={(event) => event.target.select()} />
          </div>
        )}
      </section>
      <section aria-labelledby="people-title">
        <h2 id="people-title">Staff accounts</h2>
        {people.isPending && <Loading label="Loading staff" />}
        {people.isError && <p role="alert">{people.error?.message}</p>}
        {remove.data && <p role="status">{remove.data.message}</p>}
        <MutationError error={remove.error} />
        {changeRole.data && (
          <p role="status">
            {changeRole.data.email} is now {ROLE_NAMES[changeRole.data.role].toLowerCase()}.
          </p>
        )}
        <MutationError error={changeRole.error} />
        {people.data && (
          <DataTable
            label="Staff table"
            rows={people.data}
            rowKey={(person) => person.email}
            columns={[
              { key: 'email', header: 'E-mail', rowHeader: true, cell: (person) => person.email },
              { key: 'role', header: 'Role', cell: (person) => ROLE_NAMES[person.role] },
              { key: 'status', header: 'Status', cell: (person) => (person.status === 'active' ? 'Active' : 'Invited, not set up') },
              { key: 'created', header: 'Created', cell: (person) => whenText(person.created_at) },
              {
                key: 'actions',
                header: 'Actions',
                hideHeader: true,
                cell: (person) => (
                  <>
                    <Button variant="text" aria-label={`Change role of ${person.email}`} onClick={() => setChanging({ id: person.id, email: person.email, role: person.role })}>
                      Change role
                    </Button>
                    {person.email !== me.email && (
                      <Button variant="text" aria-label={`Remove ${person.email}`} onClick={() => setLeaving({ id: person.id, email: person.email })}>
                        Remove
                      </Button>
                    )}
                  </>
                ),
              },
            ]}
          />
        )}
      </section>
      <Modal
        open={changing !== null}
        onClose={() => setChanging(null)}
        header="Change role"
        size="s"
        footer={
          <>
            <Button
              loading={changeRole.isPending}
              onClick={() => changing && changeRole.mutate({ staffId: changing.id, role: changing.role }, { onSettled: () => setChanging(null) })}
            >
              Change role
            </Button>
            <Button variant="secondary" onClick={() => setChanging(null)}>
              Cancel
            </Button>
          </>
        }
      >
        <p>{changing?.email} keeps their account, sessions and history; the new role applies from their next step.</p>
        <RadioGroup id="change-role" legend="Role" options={ROLES} value={changing?.role ?? 'reader'} onChange={(value) => changing && setChanging({ ...changing, role: value as StaffRole })} />
      </Modal>
      <SignInRulesSection />
      <Modal
        open={leaving !== null}
        onClose={() => setLeaving(null)}
        header="Remove staff member"
        size="s"
        footer={
          <>
            <Button loading={remove.isPending} onClick={() => leaving && remove.mutate(leaving.id)}>
              Remove
            </Button>
            <Button variant="secondary" onClick={() => setLeaving(null)}>
              Cancel
            </Button>
          </>
        }
      >
        <p>{leaving?.email} will be signed out at once and can no longer sign in. What they did stays in the audit log.</p>
      </Modal>
    </>
  );
}
