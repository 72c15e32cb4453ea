import { useState } from 'react';
import { saveVisitorAnswers } from './api/savedAnswers';
import { fieldErrorsOf, ServerError } from '../../lib/api/errors';
import type { StudentAnswers } from '../../lib/navState';
import { Button } from '../../ui/Button';
import { Modal } from '../../ui/Modal';
import { TextInput } from '../../ui/TextInput';

/**
 * Beyond signing up: a visitor can keep their answers under a private link for 30 days, and have
 * it e-mailed. The link restores them on any browser (useRestoreSavedAnswers).
 */
export function SaveForLater({ answers }: { answers: StudentAnswers }) {
  const [open, setOpen] = useState(false);
  const [email, setEmail] = useState('');
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string[]>([]);
  const [saved, setSaved] = useState<{ url: string; expires: string; mailed: boolean } | null>(null);

  async function save() {
    setSaving(true);
    setError([]);
    try {
      const result = await saveVisitorAnswers({ answer: answers, ...(email.trim() ? { email: email.trim() } : {}) });
      setSaved({ url: result.url, expires: new Date(result.expires_at).toLocaleDateString('en-US', { dateStyle: 'long' }), mailed: email.trim() !== '' });
    } catch (caught) {
      if (!(caught instanceof ServerError)) throw caught;
      setError(fieldErrorsOf(caught).email ?? [caught.message]);
    } finally {
      setSaving(false);
    }
  }

  return (
    <>
      <Button variant="text" onClick={() => setOpen(true)}>
        Save and finish later
      </Button>
      <Modal open={open} onClose={() => setOpen(false)} header="Save and Finish Later" size="s">
        {saved ? (
          <div role="status">
            <p>
              Your answers are saved until {saved.expires}. {saved.mailed ? 'We e-mailed you the link. ' : ''}Open this link to continue:
            </p>
            <p className="saved-link">
              <a href={saved.url}>{saved.url}</a>
            </p>
            <p>Anyone with the link can see these answers, so keep it private.</p>
          </div>
        ) : (
          <form
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              event.stopPropagation(); // React bubbles submit events through portals and parents
              void save();
            }}
          >
            <p>We will keep your answers for 30 days under a private link. To save them for good, create an account.</p>
            <TextInput id="save_email" label="Email Address (optional)" hint="We will send the link there." value={email} onChange={setEmail} inputMode="email" autoComplete="email" maxLength={254} errors={error} />
            <Button type="submit" loading={saving}>
              Save my answers
            </Button>
          </form>
        )}
      </Modal>
    </>
  );
}
