import { partnerConfig } from './config';
import type { RuleContext } from './rules/conditions';
import { legalNameOf } from './applicant';
import { longDateUtc } from './rules/formats';

/**
 * Admission decisions (issue 30): what a decider records, what the applicant reads once it is
 * released, and the texts of both sides. The spec says nothing of decisions: these are ours.
 */

export const DECISIONS = ['admit', 'deny', 'waitlist', 'defer'] as const;
export type Decision = (typeof DECISIONS)[number];

export const DECISION_NAMES: Record<Decision, string> = { admit: 'Admit', deny: 'Deny', waitlist: 'Waitlist', defer: 'Defer' };

/** Provisional until released; scheduled once a release time is set; released from that time on. */
export type DecisionState = 'provisional' | 'scheduled' | 'released';

/** The state of a decision at `now`: released exactly when its release time has come. */
export function decisionState(releaseAt: Date | null, now: Date): DecisionState {
  if (!releaseAt) return 'provisional';
  return releaseAt.getTime() <= now.getTime() ? 'released' : 'scheduled';
}

/** The last day an admitted applicant can accept or decline the offer, at 23:59:59 UTC, for a term whose own date cannot be read. */
export const REPLY_BY = '2027-05-01';

/**
 * An entry term's built-in reply date (issue 51 §2), until the office sets its own: May 1 of a Fall
 * or Summer term's year (the national reply date), December 1 before a Spring term.
 */
export function defaultReplyBy(entryTerm: unknown): string {
  const match = typeof entryTerm === 'string' ? entryTerm.trim().match(/^(Fall|Summer|Spring)\s+(\d{4})$/i) : null;
  if (!match) return REPLY_BY;
  const year = Number(match[2]);
  return match[1]!.toLowerCase() === 'spring' ? `${year - 1}-12-01` : `${year}-05-01`;
}

/** Whether an admitted applicant can still reply at `now` to an offer whose reply date is `replyBy`. */
export const replyOpen = (now: Date, replyBy: string) => now.getTime() <= new Date(`${replyBy}T23:59:59.999Z`).getTime();

/** "May 1, 2028": a reply date as letters and pages say it. */
export const replyDateText = (replyBy: string) => longDateUtc(new Date(`${replyBy}T00:00:00Z`));

/** An offer whose reply date has passed. */
export const replyClosed = (replyBy: string) => `The reply date (${replyDateText(replyBy)}) has passed. Please contact the admissions office.`;

export const decisionMessages = {
  notSubmitted: 'Only a submitted application can be decided.',
  withdrawn: 'This application was withdrawn at the applicant’s request: reinstate it before deciding.',
  reasonRequired: 'Say why the released decision is changing: the applicant will see the new one.',
  nothingToRelease: 'None of these applications has a decision waiting to be released.',
  nothingToRecall: 'None of these decisions is still scheduled: one whose release time has come stays released.',
  releaseInPast: 'Choose a release time from now on.',
  notAnOffer: 'There is no offer of admission to reply to.',
  replyReasonRequired: 'Say why the reply is recorded here: a phone call, a letter, a reply sent by mistake.',
  alreadyReplied: 'You have already replied to this offer.',
  underReview: 'Your application is under review. We will e-mail you when there is an update here.',
  noLetter: 'There is no decision letter yet: your application is under review.',
  letterNotReady: 'Your letter is still being made into a PDF. Please try again in a minute, or print it from this page.',
  noticeSubject: `An update to your ${partnerConfig.name} application`,
  /** The status page of an application the office withdrew at the applicant's request (issue 51); `on` is the day as the applicant reads it. */
  withdrawnStatus: (on: string) => `Your application was withdrawn at your request on ${on}. If this is a mistake, please contact the ${partnerConfig.address.officeName}.`,
} as const;

/** The notice e-mail: that there is an update in the portal, never the decision itself. */
export function decisionNotice(portalUrl: string): { subject: string; text: string; html: string } {
  const text = `There is an update to your application to ${partnerConfig.name}. Sign in to the portal to read it: ${portalUrl}\n\n${partnerConfig.address.officeName}, ${partnerConfig.name}`;
  const html = `<p>There is an update to your application to ${partnerConfig.name}.</p><p><a href="${encodeURI(portalUrl)}">Sign in to the portal to read it</a>.</p><p>${partnerConfig.address.officeName}, ${partnerConfig.name}</p>`;
  return { subject: decisionMessages.noticeSubject, text, html };
}

const LETTERS: Record<Decision, string> = {
  admit: `Dear {first_name},

Congratulations! I am delighted to offer you admission to ${partnerConfig.name} for {entry_term}. Your application showed us a student who will thrive here, and we would be proud to have you join us.

Please accept or decline this offer in the portal by {reply_by}.

Sincerely,
${partnerConfig.address.officeName}`,
  deny: `Dear {first_name},

Thank you for applying to ${partnerConfig.name}. After careful review, we are unable to offer you admission for {entry_term}. This decision is not a measure of your worth or your promise, and we wish you every success.

Sincerely,
${partnerConfig.address.officeName}`,
  waitlist: `Dear {first_name},

Thank you for applying to ${partnerConfig.name}. We have placed your application for {entry_term} on our waitlist. We will write to you again if a place becomes available.

Sincerely,
${partnerConfig.address.officeName}`,
  defer: `Dear {first_name},

Thank you for applying to ${partnerConfig.name}. We have deferred our decision on your application for {entry_term}, and we will review it again with the next group of applications.

Sincerely,
${partnerConfig.address.officeName}`,
};

/** The merge fields a letter template can use, each written {name}. */
export const LETTER_FIELDS = ['first_name', 'last_name', 'full_name', 'entry_term', 'applied_major', 'reply_by'] as const;

/** The longest letter template the office can keep. */
export const LETTER_MAX_CHARS = 10_000;

/** The built-in template of a decision: the letter until the office writes its own. */
export const defaultLetter = (decision: Decision) => LETTERS[decision];

/** What is wrong with a letter template, or null: empty, too long, or a merge field the portal does not know. */
export function letterTemplateProblem(template: string): string | null {
  if (!template.trim()) return 'Write the letter, or go back to the built-in one.';
  if (template.length > LETTER_MAX_CHARS) return `A letter can have at most ${LETTER_MAX_CHARS.toLocaleString('en-US')} characters.`;
  const unknown = [...template.matchAll(/\{(\w*)\}/g)].map((match) => match[1]!).filter((name) => !(LETTER_FIELDS as readonly string[]).includes(name));
  if (unknown.length > 0) return `Unknown merge field {${unknown[0]}}: use ${LETTER_FIELDS.map((name) => `{${name}}`).join(', ')}.`;
  return null;
}

/** The merge fields a letter can use, from the applicant's answers and their term's reply date. */
function mergeFields(answers: RuleContext, replyBy: string): Record<string, string> {
  const text = (key: string, fallback: string) => (typeof answers[key] === 'string' && (answers[key] as string).trim() ? (answers[key] as string).trim() : fallback);
  return {
    first_name: text('first_name', 'Applicant'),
    last_name: text('last_name', ''),
    full_name: legalNameOf(answers) || 'Applicant',
    entry_term: text('entry_term', 'the coming year'),
    applied_major: text('applied_major', 'your chosen program'),
    reply_by: replyDateText(replyBy),
  };
}

/** The decision letter for one applicant: the office's template (else the built-in one) with their answers and their term's reply date merged in. */
export function decisionLetter(decision: Decision, answers: RuleContext, template: string = LETTERS[decision], replyBy: string = defaultReplyBy(answers.entry_term)): string {
  const fields = mergeFields(answers, replyBy);
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => fields[name] ?? whole);
}
