import { MutationError } from '../../ui/MutationError';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { partnerConfig } from '../../../domain/config';
import { DECISION_NAMES, decisionMessages } from '../../../domain/decisions';
import { Button } from '../../ui/Button';
import { Modal } from '../../ui/Modal';
import { RadioGroup } from '../../ui/RadioGroup';
import { LETTER_PDF_URL, myDecisionQuery, useReplyToOffer } from './api/decision';
import { DecisionLetter } from '../../../views/letter/DecisionLetter';
import './status.css';

const longDate = (iso: string) => new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: iso.length === 10 ? 'UTC' : undefined }).format(new Date(iso));
const REPLIES = [
  { value: 'accept', label: 'I accept the offer of admission' },
  { value: 'decline', label: 'I decline the offer of admission' },
];
const REPLIED = { accept: 'You accepted the offer of admission', decline: 'You declined the offer of admission' } as const;

/** What the applicant is asked before a reply that cannot be taken back (issue 48): a decline above all. */
export const CONFIRM_REPLY = {
  accept: {
    title: 'Accept the offer?',
    text: `You are accepting the offer of admission to ${partnerConfig.name}. Your reply is final.`,
    yes: 'Yes, accept the offer',
  },
  decline: {
    title: 'Decline the offer?',
    text: `You are declining the offer of admission to ${partnerConfig.name}. You will not be able to accept it later: your reply is final.`,
    yes: 'Yes, decline the offer',
  },
} as const;

/** An admit's reply: the choice, asked once more, then what was sent and when (focused, so a screen reader hears it). */
function OfferReply({ replyBy, reply, repliedAt }: { replyBy: string; reply: 'accept' | 'decline' | null; repliedAt: string | null }) {
  const [choice, setChoice] = useState<'accept' | 'decline' | undefined>();
  const [confirming, setConfirming] = useState(false);
  const send = useReplyToOffer();
  const replied = useRef<HTMLParagraphElement>(null);
  const sentHere = send.isSuccess;
  useEffect(() => {
    if (sentHere) replied.current?.focus();
  }, [sentHere, reply]);
  if (reply) {
    return (
      <p className="status__replied" ref={replied} tabIndex={-1}>
        {REPLIED[reply]} on {longDate(repliedAt!)}.
      </p>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (choice) setConfirming(true);
  };
  const confirm = () => {
    setConfirming(false);
    if (choice) send.mutate(choice);
  };
  return (
    <form onSubmit={submit} noValidate aria-labelledby="reply-title">
      <h3 id="reply-title">Your reply</h3>
      <RadioGroup id="offer-reply" legend={`Reply by ${longDate(replyBy)}. Your reply is final.`} options={REPLIES} value={choice} onChange={(value) => setChoice(value as 'accept' | 'decline')} />
      <Button type="submit" loading={send.isPending} aria-disabled={!choice || undefined}>
        Send my reply
      </Button>
      <MutationError error={send.error} />
      {confirming && choice && (
        <Modal
          open
          onClose={() => setConfirming(false)}
          header={CONFIRM_REPLY[choice].title}
          footer={
            <>
              <Button onClick={confirm}>{CONFIRM_REPLY[choice].yes}</Button>
              <Button variant="secondary" onClick={() => setConfirming(false)}>
                Go back
              </Button>
            </>
          }
        >
          <p>{CONFIRM_REPLY[choice].text}</p>
        </Modal>
      )}
    </form>
  );
}

/** What is still the applicant's to do while the office reviews. */
export const LAST_STEPS = `Last steps: ask your school counselor to send your transcript, and watch your e-mail for news from the ${partnerConfig.address.officeName}.`;

/**
 * The completion page's status (issue 30): under review until a decision is released, then the
 * decision, its letter (to print, or as a PDF the worker prints), and for an admit the reply. Nothing before release.
 * Withdrawn at the applicant's request: said so, and nothing else (issue 51).
 */
export function DecisionStatus() {
  const status = useQuery(myDecisionQuery);
  const data = status.data;
  if (!data || data.state === 'in_progress') return null;
  if (data.state === 'withdrawn') {
    return (
      <section aria-labelledby="status-title" className="status">
        <h2 id="status-title">Status</h2>
        <p>{decisionMessages.withdrawnStatus(longDate(data.withdrawn_at!))}</p>
      </section>
    );
  }
  if (data.state === 'under_review') {
    return (
      <section aria-labelledby="status-title" className="status">
        <h2 id="status-title">Status</h2>
        <p>{decisionMessages.underReview}</p>
        {/* Until a decision is released (issue 48: it stayed above the decision, in the page's banner). */}
        <p>{LAST_STEPS}</p>
      </section>
    );
  }
  return (
    <section aria-labelledby="status-title" className="status">
      <h2 id="status-title">Decision: {DECISION_NAMES[data.decision!]}</h2>
      <p>Released {longDate(data.released_at!)}.</p>
      <DecisionLetter letter={data.letter!} label="Your decision letter" className="status__letter" />
      <p className="status__letter-actions">
        <a className="button button--secondary" href={LETTER_PDF_URL} download>
          Download the letter (PDF)
        </a>
        {/* The letter prints alone (status.css). */}
        <Button variant="secondary" onClick={() => window.print()}>
          Print the letter
        </Button>
      </p>
      {/* The entry term's deposit line (issue 51 §2), with the offer, before the reply. */}
      {data.decision === 'admit' && data.deposit && <p className="status__deposit">{data.deposit}</p>}
      {data.decision === 'admit' && data.reply_by && <OfferReply replyBy={data.reply_by} reply={data.reply ?? null} repliedAt={data.replied_at ?? null} />}
    </section>
  );
}
