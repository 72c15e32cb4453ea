import { MutationError } from '../../../ui/MutationError';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { components } from '../../../../generated/api';
import { STAFF_ROLES } from '../../../../domain/staff';
import { fieldErrorsOf } from '../../../lib/api/errors';
import { Button } from '../../../ui/Button';
import { Field } from '../../../ui/Field';
import { Select } from '../../../ui/Select';
import { signInRulesQuery, useSetSignInRules } from './api/admin';
import { staffOidcQuery } from '../session/api/session';

type Rules = components['schemas']['SignInRules'];
const ROLE_OPTIONS = STAFF_ROLES.map((role) => ({ value: role, label: role[0]!.toUpperCase() + role.slice(1) }));

function RulesForm({ rules, save }: { rules: Rules; save: ReturnType<typeof useSetSignInRules> }) {
  const [domains, setDomains] = useState(rules.domains.join(', '));
  const [claim, setClaim] = useState(rules.role_claim || 'groups');
  const [mappings, setMappings] = useState(() => rules.mappings.map((mapping, id) => ({ id, ...mapping })));
  const errors = fieldErrorsOf(save.error);
  const edit = (id: number, patch: Partial<(typeof mappings)[number]>) => setMappings((current) => current.map((mapping) => (mapping.id === id ? { ...mapping, ...patch } : mapping)));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({
      domains: domains.split(/[\s,]+/).filter(Boolean),
      role_claim: claim,
      mappings: mappings.filter((mapping) => mapping.value.trim()).map(({ value, role }) => ({ value: value.trim(), role })),
    });
  };
  return (
    <form onSubmit={submit} noValidate>
      <Field id="oidc-domains" label="E-mail domains let in (comma-separated)" errors={errors.domains}>
        <input id="oidc-domains" className="input input--outlined" value={domains} onChange={(event) => setDomains(event.target.value)} />
      </Field>
      <Field id="oidc-claim" label="The claim that says the role (for example groups or roles)">
        <input id="oidc-claim" className="input input--outlined" value={claim} onChange={(event) => setClaim(event.target.value)} />
      </Field>
      {mappings.map((mapping, index) => (
        <fieldset key={mapping.id} className="staff-scale">
          <legend>Mapping {index + 1}</legend>
          <Field id={`oidc-map-${mapping.id}-value`} label="When the claim holds">
            <input id={`oidc-map-${mapping.id}-value`} className="input input--outlined" value={mapping.value} onChange={(event) => edit(mapping.id, { value: event.target.value })} />
          </Field>
          <Field id={`oidc-map-${mapping.id}-role`} label="The role">
            <Select id={`oidc-map-${mapping.id}-role`} value={mapping.role} options={ROLE_OPTIONS} onChange={(role) => role && edit(mapping.id, { role: role as typeof mapping.role })} />
          </Field>
          <Button variant="text" onClick={() => setMappings((current) => current.filter((each) => each.id !== mapping.id))}>
            {`Remove mapping ${index + 1}`}
          </Button>
        </fieldset>
      ))}
      <p>
        <Button variant="secondary" onClick={() => setMappings((current) => [...current, { id: Math.max(-1, ...current.map((each) => each.id)) + 1, value: '', role: 'reader' }])}>
          Add a mapping
        </Button>
      </p>
      <Button type="submit" loading={save.isPending}>
        Save who may sign in
      </Button>
      <MutationError error={save.error} fields={errors} />
    </form>
  );
}

/** Who may sign in with the institution's identity provider, and as what (administrators), where one is set up. */
export function SignInRulesSection() {
  const oidc = useQuery(staffOidcQuery);
  const rules = useQuery({ ...signInRulesQuery, enabled: oidc.data?.enabled === true });
  // Here, not in the form: a save starts the form again from what was kept.
  const save = useSetSignInRules();
  if (!oidc.data?.enabled) return null;
  return (
    <section aria-labelledby="oidc-title">
      <h2 id="oidc-title">Sign-in with the institution’s account</h2>
      <p>Who comes in through the institution’s identity provider: their e-mail domain must be one of these, and the first mapping whose value their claim holds gives their role. Nobody is let in until this is saved.</p>
      {rules.isError && <p role="alert">{rules.error?.message}</p>}
      {rules.data && <RulesForm key={rules.data.updated_at ?? 'none'} rules={rules.data} save={save} />}
      <div role="status">{save.isSuccess && 'Saved. The next sign-in follows these rules; a member’s role follows their claims at each sign-in.'}</div>
    </section>
  );
}
