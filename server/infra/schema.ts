import { sql } from 'drizzle-orm';
import { STAFF_ROLES } from '../../domain/staff';
import { DECISIONS } from '../../domain/decisions';
import { STORED_ANSWERS_MAX_CHARS } from '../../domain/rules/storedBound';
import type { ReviewFormDefinition } from '../../domain/reviews';
import type { CompositeFormulaDefinition, CompositePart } from '../../domain/scores';
import type { RecommendationAnswers } from '../../domain/recommenders';
import type { ChecklistRule } from '../../domain/checklist';
import type { ExportTemplate } from '../../domain/exportTemplates';
import { bigint, bigserial, boolean, check, customType, doublePrecision, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, unique, uniqueIndex, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';

/**
 * A transaction id with its epoch (PostgreSQL's `xid8`), as text: the export cursor's unit (issue
 * 32, docs/decisions/0025). Ids grow with every writing transaction and every one below the
 * oldest still running is finished, so "changed below the horizon" is a set no later commit adds to.
 */
const xid8 = customType<{ data: string }>({ dataType: () => 'xid8' });

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** Applicant accounts, keyed by the lower-cased e-mail address. */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    username: text('username').notNull().unique(),
    passwordHash: text('password_hash').notNull(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  // The staff search by the start of an e-mail address (`like 'jordan%'`).
  (t) => [index('users_username_prefix').on(t.username.op('text_pattern_ops'))],
);

/** One application per user: the answers map and the last page visited. */
export const applications = pgTable(
  'applications',
  {
  userId: uuid('user_id').primaryKey().references(() => users.id, { onDelete: 'cascade' }),
  answer: jsonb('answer').$type<Record<string, string | number | boolean | null>>().notNull().default(sql`'{}'::jsonb`),
  lastPage: text('last_page'),
  /** Add-another button id → number of groups shown. */
  addAnother: jsonb('add_another').$type<Record<string, number>>().notNull().default(sql`'{}'::jsonb`),
  /** Tab group id → chosen tab. */
  tabs: jsonb('tabs').$type<Record<string, string>>().notNull().default(sql`'{}'::jsonb`),
  /** The latest validation result the client posted (for staff: what was still missing). */
  lastValidation: jsonb('last_validation').$type<Record<string, string[]>>(),
  submittedAt: timestamp('submitted_at', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  /**
   * Moved on by every save of the answers: a page that knows the current one saves without any
   * answer compared (issue 28, docs/decisions/0017); one that does not has each answer it sends checked.
   */
  answersRevision: integer('answers_revision').notNull().default(0),
  /**
   * The number the office and the applicant quote (on every page of the application document and
   * in download names): given once, when the application row is made (the first sign-in), never reused.
   */
  applicationNumber: integer('application_number').notNull().unique().generatedAlwaysAsIdentity({ startWith: 100001 }),
  /** The furthest status reached (started → validating → submitted), kept by a trigger on web_status_events for the staff list. */
  status: text('status', { enum: ['started', 'validating', 'submitted'] }).notNull().default('started'),
  /**
   * The applicant's names as answered (legal first, preferred, last) and their school (issue 32: the
   * search finds an applicant by school too), computed by the database on
   * every write from `answer`. The staff search's index folds them (`staff_names_fold`, migration
   * 0010) and is written again only when they change: a save that changes no name is still an
   * update in place (HOT), with no fold and no trigger.
   */
  staffNames: text('staff_names').generatedAlwaysAs(
    sql`coalesce(answer->>'first_name', '') || ' ' || coalesce(answer->>'preferred_name', '') || ' ' || coalesce(answer->>'last_name', '') || ' ' || coalesce(answer->>'hs_name', '')`,
  ),
  /**
   * The entry term answered, kept by the database for the staff list's filter. A column of its own,
   * not an index on `answer->>'entry_term'`: an index on an expression of `answer` made every save
   * rewrite every index of the row (no HOT update), which halved the saves PostgreSQL could take.
   */
  entryTerm: text('entry_term').generatedAlwaysAs(sql`answer->>'entry_term'`),
  /**
   * Answers the list searches and the dashboard counts by (issue 32), kept by the database like
   * `entry_term`: read from a narrow column, not from every row's answers (a birth-date search read
   * 100,000 answers in 345 ms, the dashboard's breakdowns in seconds).
   */
  birthDate: text('birth_date').generatedAlwaysAs(sql`answer->>'birth_date'`),
  phoneDigits: text('phone_digits').generatedAlwaysAs(
    sql`regexp_replace(coalesce(answer->>'phone_home', '') || '|' || coalesce(answer->>'phone_mobile', '') || '|' || coalesce(answer->>'phone_international', ''), '[^0-9|]', '', 'g')`,
  ),
  major: text('major').generatedAlwaysAs(sql`coalesce(nullif(answer->>'applied_major_desc', ''), nullif(answer->>'applied_major', ''))`),
  /** The state for an address in the United States, the country otherwise. */
  place: text('place').generatedAlwaysAs(
    sql`coalesce(case when coalesce(answer->>'country', '') in ('', 'US', 'USA') then nullif(answer->>'state_desc', '') end, nullif(answer->>'country_desc', ''), nullif(answer->>'country', ''))`,
  ),
  /** The high school as answered, for the reports (issue 51 §1): read from the whole answer, a report by school took 0.7 s at 100,000. */
  school: text('school').generatedAlwaysAs(sql`nullif(answer->>'hs_name', '')`),
  /** The workflow stage (issue 30); null before the office places it. */
  binId: integer('bin_id').references((): AnyPgColumn => bins.id),
  /**
   * The checklist items still awaited (issue 31): null before submission, empty when complete.
   * Written on submission and on every change that can move an item (a mark, a material
   * converted or removed), for the list's filters; the checklist itself is computed on read.
   */
  checklistMissing: text('checklist_missing').array(),
  /**
   * The transaction that last changed what an export carries (issue 32): set by each save (in its
   * UPDATE), and by triggers on a change of status, submission, checklist, bin or decision
   * (migration 0027). Null: not changed since before exports kept cursors. Not indexed, so a save
   * stays an update in place.
   */
  changedXid: xid8('changed_xid'),
  /**
   * When what an export carries last changed outside a save (the same triggers as `changed_xid`, and
   * a correction): with `updated_at` (a save) and the decision's own, the export's `updated_at`
   * (issue 51, migration 0052). Null: not changed so since.
   */
  changedAt: timestamp('changed_at', { withTimezone: true }),
  /**
   * Withdrawn (submitted) or cancelled (in progress) at the applicant's request (issue 32): when,
   * why and by whom; null while it stands. The record stays; staff can reinstate it.
   */
  withdrawnAt: timestamp('withdrawn_at', { withTimezone: true }),
  withdrawnReason: text('withdrawn_reason'),
  withdrawnBy: text('withdrawn_by'),
  /**
   * A duplicate record of one person, merged into another (issue 32): it stays, with its own
   * history, out of the list; the survivor shows both. Null for a record that stands.
   */
  mergedInto: uuid('merged_into'),
  mergedAt: timestamp('merged_at', { withTimezone: true }),
  mergedReason: text('merged_reason'),
  mergedBy: text('merged_by'),
  /**
   * Shown in the staff list (issue 32's rules in one column, for the list's partial indexes, issue
   * 33): not merged into another record, and an application (it answered something, or was
   * submitted), not an account that only signed in. Its value changes at most at a record's first
   * save and at a merge, so a save stays an update in place (HOT: the indexes' columns keep their
   * values). The list read and counted these rows from the table (200–340 ms at 100,000); the
   * indexes below serve them alone.
   */
  listed: boolean('listed').generatedAlwaysAs(sql`merged_into is null and (status <> 'started' or answers_revision > 0 or submitted_at is not null)`),
  },
  // The stored answers' bound, kept by the database on the merged result: a save that would pass
  // it fails with this constraint's name (the handler answers 413) and nothing is written.
  (t) => [
    check('applications_answer_bound', sql`pg_column_size(${t.answer}) <= ${sql.raw(String(STORED_ANSWERS_MAX_CHARS))}`),
    // The staff list's filters and sort, each with its index (issue 15: 100,000 applications).
    index('applications_status').on(t.status),
    index('applications_entry_term').on(t.entryTerm),
    index('applications_birth_date').on(t.birthDate),
    index('applications_bin').on(t.binId),
    // The list's default order (newest submission first, then by id) read straight off the index, and the export's keyset walked backwards on it.
    index('applications_submitted_at').on(t.submittedAt.desc().nullsLast(), t.userId.desc()),
    // The staff list's counts and pages over the records it shows (issue 33).
    index('applications_listed_status').on(t.status).where(sql`${t.listed}`),
    index('applications_listed_submitted_at').on(t.submittedAt.desc().nullsLast(), t.userId.desc()).where(sql`${t.listed}`),
    index('applications_staff_search').using('gin', sql`to_tsvector('simple', staff_names_fold(${t.staffNames}))`),
    index('applications_checklist_missing').using('gin', t.checklistMissing),
  ],
);

/** Status events; the profile's status is derived from the distinct ones (spec/platform.md §4). */
export const webStatusEvents = pgTable(
  'web_status_events',
  {
    id: serial('id').primaryKey(),
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    webStatus: text('web_status', { enum: ['started', 'validating', 'submitted'] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [unique('web_status_events_user_status').on(t.userId, t.webStatus)],
);

/** Each successful sign-in (the profile's successful_login list). */
export const logins = pgTable(
  'logins',
  {
    id: serial('id').primaryKey(),
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [index('logins_user').on(t.userId)],
);

/** Sessions: only the SHA-256 of the cookie's token is stored. */
export const sessions = pgTable(
  'sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /**
     * When a person last used the session in any tab (a page's keep-alive, sent on activity at
     * most once a minute; the sign-in): not every call, since a completion page's polls are no
     * one's activity (issue 48, GET /api/session). Null: not since the sign-in (created_at).
     */
    activeAt: timestamp('active_at', { withTimezone: true }),
  },
  (t) => [index('sessions_user').on(t.userId)],
);

/** E-mailed confirmation codes: HMAC of the code, single use, limited tries. */
export const confirmationCodes = pgTable(
  'confirmation_codes',
  {
    id: serial('id').primaryKey(),
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    failedAttempts: integer('failed_attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('confirmation_codes_user').on(t.userId, t.createdAt)],
);

/** Password-reset links: only the HMAC of the id is stored. */
export const passwordResets = pgTable(
  'password_resets',
  {
    idHash: text('id_hash').primaryKey(),
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('password_resets_user').on(t.userId)],
);

/** Fixed-window counters, in the database so limits hold across app instances. */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] })],
);

/** The dev outbox: mails kept instead of sent when no SMTP_URL is set. */
export const outbox = pgTable('outbox', {
  id: serial('id').primaryKey(),
  to: text('to').notNull(),
  subject: text('subject').notNull(),
  text: text('text').notNull(),
  html: text('html').notNull(),
  /** The mail's Message-ID when it has one of its own (a decision notice): a notice sent again after a crash carries the same. */
  messageId: text('message_id'),
  createdAt: createdAt(),
});

/** A visitor's answers saved to finish later: only the SHA-256 of the link's token is stored. */
export const anonymousAnswers = pgTable(
  'anonymous_answers',
  {
    tokenHash: text('token_hash').primaryKey(),
    answer: jsonb('answer').$type<Record<string, string | number | boolean | null>>().notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('anonymous_answers_expiry').on(t.expiresAt)],
);

/**
 * One uploaded document per user and document field: the original under `fileKey`, the PDF it
 * was converted to under `pdfKey` (spec/form.md §4 conversion statuses).
 */
export const documents = pgTable(
  'documents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    answerKey: text('answer_key').notNull(),
    fileKey: text('file_key').notNull(),
    fileName: text('file_name').notNull(),
    fileSize: integer('file_size'),
    /** unprocessed → in_progress → completed | failed */
    status: text('status', { enum: ['unprocessed', 'in_progress', 'completed', 'failed'] }).notNull().default('unprocessed'),
    message: text('message'),
    pdfKey: text('pdf_key'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('documents_user_key').on(t.userId, t.answerKey)],
);

/** The PDF copy of a submitted application (spec/platform.md §4 PDF copy statuses). */
export const pdfCopies = pgTable('pdf_copies', {
  userId: uuid('user_id').primaryKey().references(() => users.id, { onDelete: 'cascade' }),
  /** UNPROCESSED → IN_PROGRESS → COMPLETED | FAILED */
  status: text('status', { enum: ['UNPROCESSED', 'IN_PROGRESS', 'COMPLETED', 'FAILED'] }).notNull(),
  pdfKey: text('pdf_key'),
  message: text('message'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Read-only print-view tokens: SHA-256 stored, one application each, minutes long. */
export const serviceTokens = pgTable(
  'service_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('service_tokens_expiry').on(t.expiresAt)],
);

/**
 * Reference records for /lookup/find: high schools (hs_ceeb, keyed by CEEB code), colleges
 * (college_ceeb, keyed by IPEDS UNITID) and ZIP codes (address). `search_name` and `search_text`
 * hold the folded forms (lower case, no accents or punctuation) the search matches against.
 */
export const lookupRecords = pgTable(
  'lookup_records',
  {
    category: text('category').notNull(),
    id: text('id').notNull(),
    name: text('name').notNull(),
    ceeb: text('ceeb'),
    city: text('city'),
    /** The state's option value in the form (its full name). */
    state: text('state'),
    stateCode: text('state_code'),
    zip: text('zip'),
    country: text('country'),
    /** Colleges that have closed are still found (an applicant may have attended one), but last. */
    active: boolean('active').notNull().default(true),
    searchName: text('search_name').notNull(),
    /** The folded name, other names, city, state code, code and ZIP: every word a search may match. */
    searchText: text('search_text').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.category, t.id] }),
    index('lookup_records_words').using('gin', sql`to_tsvector('simple', ${t.searchText})`),
    index('lookup_records_name_prefix').on(t.category, t.searchName.op('text_pattern_ops')),
  ],
);

/** Which file each lookup category was last loaded from, and when (shown by the import command). */
export const lookupSources = pgTable('lookup_sources', {
  category: text('category').primaryKey(),
  source: text('source').notNull(),
  rowCount: integer('row_count').notNull(),
  importedAt: timestamp('imported_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Admissions office accounts: a kind of account of their own, never an applicant's. A new member
 * has no password and no second factor until they open their one-time set-up link.
 */
export const staffUsers = pgTable('staff_users', {
  id: uuid('id').primaryKey().defaultRandom(),
  email: text('email').notNull().unique(),
  role: text('role', { enum: STAFF_ROLES }).notNull(),
  passwordHash: text('password_hash'),
  /** The TOTP secret, encrypted with a key derived from SESSION_SECRET (it must be read back to check a code). */
  totpSecret: text('totp_secret').notNull(),
  /** The last TOTP time step accepted: a code is good once (ASVS 2.8.4). */
  totpLastStep: bigint('totp_last_step', { mode: 'number' }),
  /** Wrong codes in a row after the right password; at 100 only a recovery code gets in (issue 29). */
  totpFailures: integer('totp_failures').notNull().default(0),
  activatedAt: timestamp('activated_at', { withTimezone: true }),
  /** Made (or taken up from an invitation) by a sign-in through the institution's provider: the provider speaks for it. A local account it never takes over (issue 49, item 7). */
  viaProvider: boolean('via_provider').notNull().default(false),
  createdAt: createdAt(),
});

/** Members an administrator removed: the provider does not bring them back; an invitation does (issue 49, item 7). */
export const staffRemovals = pgTable('staff_removals', {
  email: text('email').primaryKey(),
  removedByEmail: text('removed_by_email').notNull(),
  removedAt: timestamp('removed_at', { withTimezone: true }).notNull(),
});

/**
 * The decision on each application (issue 30): provisional while `release_at` is null, released
 * from `release_at` on (the applicant's status reads it against the clock, so a scheduled release
 * needs no job to be seen). `notice_for` is the release time whose notice e-mail was claimed (at
 * `notice_claimed_at`), `notice_sent_for` the one whose notice the mail server took: a claim not
 * confirmed within its lease is a process that died, and the notice is sent again, with the same
 * Message-ID (at least once, a duplicate recognisable: issue 49, item 5).
 */
export const decisions = pgTable(
  'decisions',
  {
    userId: uuid('user_id').primaryKey().references(() => users.id, { onDelete: 'cascade' }),
    decision: text('decision', { enum: DECISIONS }).notNull(),
    decidedBy: uuid('decided_by').references(() => staffUsers.id, { onDelete: 'set null' }),
    decidedByEmail: text('decided_by_email').notNull(),
    decidedAt: timestamp('decided_at', { withTimezone: true }).notNull(),
    releaseAt: timestamp('release_at', { withTimezone: true }),
    /** Why a released decision was changed (the last change). */
    reason: text('reason'),
    noticeFor: timestamp('notice_for', { withTimezone: true }),
    noticeClaimedAt: timestamp('notice_claimed_at', { withTimezone: true }),
    noticeSentFor: timestamp('notice_sent_for', { withTimezone: true }),
    reply: text('reply', { enum: ['accept', 'decline'] }),
    repliedAt: timestamp('replied_at', { withTimezone: true }),
    /** The member who recorded or corrected the reply (issue 51 §2); null when the applicant replied in the portal. */
    replyRecordedBy: text('reply_recorded_by'),
    replyReason: text('reply_reason'),
    /**
     * The transaction that last changed the decision (a trigger, migration 0034): the export's
     * runs of changes take an application when it or its decision changed in their window. Kept
     * here, not on the application: a release of 10,000 wrote 10,000 applications again.
     */
    changedXid: xid8('changed_xid'),
    /** When the decision was last made or changed (the same trigger; migration 0052): the export's `updated_at` once it is released. */
    changedAt: timestamp('changed_at', { withTimezone: true }).defaultNow(),
  },
  (t) => [
    check('decisions_decision', sql`${t.decision} in ('admit', 'deny', 'waitlist', 'defer')`),
    index('decisions_release_at').on(t.releaseAt),
    /**
     * The notices' claim (server/decisions/notices.ts) walks only decisions whose notice is due.
     * On `decisions_release_at` each claim walked past every notice already sent, in order: the
     * k-th notice of a release read k rows, 10,000 notices fifty million: a sweep during a release
     * of 10,000 is the likely cause of its 9.7–11 s in two bench runs (1.1 s in the others; decision 0035).
     */
    index('decisions_notice_unsent').on(t.releaseAt).where(sql`notice_sent_for is distinct from release_at`),
    index('decisions_decided_at').on(t.decidedAt),
  ],
);

/** The office's own letter of a decision (issue 30); a decision without a row reads the built-in one (domain/decisions.ts). */
export const letterTemplates = pgTable('letter_templates', {
  decision: text('decision', { enum: DECISIONS }).primaryKey(),
  body: text('body').notNull(),
  updatedByEmail: text('updated_by_email').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

/**
 * Decision letters printed as PDFs (issue 30), one per application: `letter_hash` is the SHA-256 of
 * the letter's words as printed, so a template changed since prints the letter again.
 */
export const letterPdfs = pgTable('letter_pdfs', {
  userId: uuid('user_id').primaryKey().references(() => users.id, { onDelete: 'cascade' }),
  letterHash: text('letter_hash').notNull(),
  status: text('status', { enum: ['waiting', 'ready', 'failed'] }).notNull(),
  pdfKey: text('pdf_key'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** What staff recorded on an application's checklist (issue 31): an item received or waived, by whom, when and why. */
export const checklistMarks = pgTable(
  'checklist_marks',
  {
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    itemKey: text('item_key').notNull(),
    status: text('status', { enum: ['received', 'waived'] }).notNull(),
    byEmail: text('by_email').notNull(),
    reason: text('reason'),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.itemKey] })],
);

/**
 * Those an applicant asked for a recommendation (issue 31): each has a link of their own (its
 * SHA-256 stored; a resend makes a new one), good for RECOMMENDER_LINK_DAYS, withdrawn by the
 * applicant or used up once the letter is in. `answers`: what the recommender's form said.
 */
export const recommenders = pgTable(
  'recommenders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['counselor', 'teacher'] }).notNull(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    status: text('status', { enum: ['sent', 'opened', 'submitted', 'withdrawn'] }).notNull(),
    /** Asked under the applicant's waiver (issue 49): told the applicant will not read the letter, which binds it whatever the answer says later. */
    waived: boolean('waived').notNull().default(false),
    answers: jsonb('answers').$type<RecommendationAnswers>(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull(),
    openedAt: timestamp('opened_at', { withTimezone: true }),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
  },
  (t) => [index('recommenders_user').on(t.userId)],
);

/** The checklist's rules as an administrator set them (issue 31): each save a new version, the newest in force; none, the built-in list. */
export const checklistRules = pgTable('checklist_rules', {
  version: serial('version').primaryKey(),
  definition: jsonb('definition').$type<ChecklistRule[]>().notNull(),
  createdByEmail: text('created_by_email').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

/** The weekly reminder of missing materials (issue 31): when it was last sent, and whether the applicant switched it off. */
export const materialReminders = pgTable('material_reminders', {
  userId: uuid('user_id').primaryKey().references(() => users.id, { onDelete: 'cascade' }),
  off: boolean('off').notNull().default(false),
  lastSentAt: timestamp('last_sent_at', { withTimezone: true }),
  /** When a sweep claimed this week's reminder; cleared once the mail server took it (sent at least once, issue 49). */
  claimedAt: timestamp('claimed_at', { withTimezone: true }),
});

/**
 * What arrived for a checklist item as a file (issue 31): staff attach what came by post or
 * e-mail; converted to PDF like every document, and received once converted.
 */
export const materials = pgTable(
  'materials',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    itemKey: text('item_key').notNull(),
    fileKey: text('file_key').notNull(),
    fileName: text('file_name').notNull(),
    fileSize: integer('file_size'),
    /** unprocessed → in_progress → completed | failed, as a document's. */
    status: text('status', { enum: ['unprocessed', 'in_progress', 'completed', 'failed'] }).notNull().default('unprocessed'),
    message: text('message'),
    pdfKey: text('pdf_key'),
    byEmail: text('by_email').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /** When its conversion last moved (queued, begun): one not moved for STUCK_AFTER_MS is queued again (issue 49, item 12). */
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** Who sent it: staff (what came by post or e-mail), the applicant (an item they may send), or a recommender. */
    source: text('source', { enum: ['staff', 'applicant', 'recommender'] }).notNull().default('staff'),
    /** A recommender's letter: who sent it (null for staff's and the applicant's files). */
    recommenderId: uuid('recommender_id').references(() => recommenders.id, { onDelete: 'set null' }),
  },
  (t) => [index('materials_user').on(t.userId)],
);

/** Conflicts of interest (issue 30): the application is not shown to the staff member who declared one. */
export const conflicts = pgTable(
  'conflicts',
  {
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    staffId: uuid('staff_id').notNull().references(() => staffUsers.id, { onDelete: 'cascade' }),
    reason: text('reason'),
    declaredAt: timestamp('declared_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.staffId, t.userId] })],
);

/** The review form's versions (issue 30): the current form is the newest; each review keeps the version it was written on. */
export const reviewForms = pgTable('review_forms', {
  version: serial('version').primaryKey(),
  definition: jsonb('definition').$type<ReviewFormDefinition>().notNull(),
  createdByEmail: text('created_by_email').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

/** Each entry term's reply date and deposit line (issue 51 §2); a term without a row reads its built-in date (domain/decisions.ts defaultReplyBy). */
export const replyDates = pgTable('reply_dates', {
  entryTerm: text('entry_term').primaryKey(),
  /** YYYY-MM-DD: the last day, to 23:59:59 UTC. */
  replyBy: text('reply_by').notNull(),
  deposit: text('deposit'),
  updatedByEmail: text('updated_by_email').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

/** The cycle's composite score formula (issue 51 §1), versioned as the review form is. */
export const compositeFormulas = pgTable('composite_formulas', {
  version: serial('version').primaryKey(),
  definition: jsonb('definition').$type<CompositeFormulaDefinition>().notNull(),
  createdByEmail: text('created_by_email').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

/**
 * What each reviewed application's reviews add up to, and its composite score (issue 51 §1): kept
 * beside the reviews, written with each review and again by a job when the formula changes, so the
 * list sorts and filters on an index instead of adding up 100,000 applications' reviews per page.
 */
export const applicationScores = pgTable(
  'application_scores',
  {
    userId: uuid('user_id').primaryKey().references(() => users.id, { onDelete: 'cascade' }),
    reviews: integer('reviews').notNull(),
    means: jsonb('means').$type<Record<string, number>>().notNull(),
    recommendations: jsonb('recommendations').$type<Record<string, number>>().notNull(),
    composite: doublePrecision('composite'),
    parts: jsonb('parts').$type<CompositePart[]>().notNull(),
    reason: text('reason'),
    formulaVersion: integer('formula_version').notNull(),
    computedAt: timestamp('computed_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('application_scores_composite').on(sql`${t.composite} desc nulls last`, sql`${t.userId} desc`), index('application_scores_formula').on(t.formulaVersion)],
);

/**
 * Saved views of the applications list (issue 51 §1): a member's name for the list's address and
 * columns, theirs or shared with the office. Kept with the owner's e-mail, so a shared view still
 * names them after their account is removed (it then has no owner to change it; an admin removes it).
 */
export const savedViews = pgTable(
  'saved_views',
  {
    id: serial('id').primaryKey(),
    staffId: uuid('staff_id').references(() => staffUsers.id, { onDelete: 'set null' }),
    ownerEmail: text('owner_email').notNull(),
    name: text('name').notNull(),
    query: text('query').notNull(),
    columns: jsonb('columns').$type<string[]>().notNull(),
    shared: boolean('shared').notNull(),
    createdAt: createdAt(),
  },
  (t) => [unique('saved_views_name_per_member').on(t.staffId, t.name)],
);

/** The workflow stages an application moves through (issue 30), in the office's order; a blind bin hides the other reviews from a reader until theirs is in. */
export const bins = pgTable('bins', {
  id: serial('id').primaryKey(),
  name: text('name').notNull().unique(),
  blind: boolean('blind').notNull().default(false),
  position: integer('position').notNull(),
  /** The bin an application moves to when its checklist becomes complete (issue 31); one at most. */
  receivesComplete: boolean('receives_complete').notNull().default(false),
}, (t) => [uniqueIndex('bins_one_receives_complete').on(t.receivesComplete).where(sql`${t.receivesComplete}`)]);

/** Which applications each reader is to read (issue 30): their queue is the ones not yet reviewed. */
export const assignments = pgTable(
  'assignments',
  {
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    staffId: uuid('staff_id').notNull().references(() => staffUsers.id, { onDelete: 'cascade' }),
    assignedByEmail: text('assigned_by_email').notNull(),
    assignedAt: timestamp('assigned_at', { withTimezone: true }).notNull(),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.staffId, t.userId] }), index('assignments_user').on(t.userId)],
);

/**
 * Signed reviews (issue 30): one per reader per application, kept as submitted. `signature` is the
 * SHA-256 of `reviewSignedText` (domain/reviews.ts); the audit entry of the submission holds it too,
 * in the hash-chained log, so a review changed afterwards no longer matches what was signed.
 */
export const reviews = pgTable(
  'reviews',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    staffId: uuid('staff_id').references(() => staffUsers.id, { onDelete: 'set null' }),
    reviewerEmail: text('reviewer_email').notNull(),
    binName: text('bin_name'),
    formVersion: integer('form_version').notNull(),
    ratings: jsonb('ratings').$type<{ scale: string; rating: number; label: string }[]>().notNull(),
    recommendation: text('recommendation').notNull(),
    comment: text('comment').notNull(),
    submittedAt: timestamp('submitted_at', { withTimezone: true }).notNull(),
    signature: text('signature').notNull(),
  },
  (t) => [unique('reviews_one_per_reader').on(t.userId, t.staffId), index('reviews_user').on(t.userId, t.id)],
);

/**
 * Staff notes on an application (issue 30): kept as written, never edited. The author's e-mail is
 * kept with the note, so it still names them after their account is removed.
 */
export const applicationNotes = pgTable(
  'application_notes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    staffId: uuid('staff_id').references(() => staffUsers.id, { onDelete: 'set null' }),
    authorEmail: text('author_email').notNull(),
    text: text('text').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('application_notes_user').on(t.userId, t.id)],
);

/** One-time set-up links (an invitation, or the command line's first admin): SHA-256 stored. */
export const staffSetupTokens = pgTable(
  'staff_setup_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    staffId: uuid('staff_id').notNull().references(() => staffUsers.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('staff_setup_tokens_staff').on(t.staffId)],
);

/** One-time recovery codes for a lost authenticator: HMAC stored, each used once. */
export const staffRecoveryCodes = pgTable(
  'staff_recovery_codes',
  {
    id: serial('id').primaryKey(),
    staffId: uuid('staff_id').notNull().references(() => staffUsers.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('staff_recovery_codes_staff').on(t.staffId)],
);

/** Staff sessions: SHA-256 of the cookie's token; a cookie scoped to /staff, never valid on /api. */
export const staffSessions = pgTable(
  'staff_sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    staffId: uuid('staff_id').notNull().references(() => staffUsers.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('staff_sessions_staff').on(t.staffId)],
);

/**
 * The record of disclosures: every staff sign-in, application view, download and export. No call
 * edits it and the database refuses UPDATE and DELETE on it (a trigger); the staff member's e-mail
 * is kept as it was, and an application is named by id without a foreign key, so removing an
 * account removes no record of who read it.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    staffId: uuid('staff_id'),
    staffEmail: text('staff_email').notNull(),
    action: text('action').notNull(),
    applicationId: uuid('application_id'),
    /** What exactly: a document's key, an export's format and range, a failed sign-in's reason. */
    detail: jsonb('detail').$type<Record<string, string | number | null | string[]>>(),
    ip: text('ip').notNull(),
    /** The hash chain (issue 29): written by the insert trigger of migration 0013, checked by `npm run audit:verify`. */
    prevHash: text('prev_hash'),
    hash: text('hash'),
  },
  (t) => [index('audit_log_at').on(t.at), index('audit_log_staff').on(t.staffEmail, t.at), index('audit_log_application').on(t.applicationId, t.at)],
);

/** The admin's export templates (issue 32), each with its cursor: the horizon its last successful run reached. */
export const exportTemplates = pgTable('export_templates', {
  id: serial('id').primaryKey(),
  name: text('name').notNull().unique(),
  definition: jsonb('definition').$type<ExportTemplate>().notNull(),
  /** Every change below it has left in a run; null: the next run takes everything. */
  cursorXid: xid8('cursor_xid'),
  cursorAt: timestamp('cursor_at', { withTimezone: true }),
  /** The due instant of the latest scheduled run made: claimed by one process (a conditional update), so a run is made once per instant. */
  scheduledFor: timestamp('scheduled_for', { withTimezone: true }),
  updatedByEmail: text('updated_by_email').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

/**
 * Each run of a template: the window of changes it took (`from_xid` inclusive, null for all, to
 * `to_xid` exclusive), where its file is, and how it ended. `published` is false between the
 * cursor's commit and the file taking its final name; a worker finishes that after a crash.
 */
export const exportRuns = pgTable(
  'export_runs',
  {
    id: serial('id').primaryKey(),
    templateId: integer('template_id').references(() => exportTemplates.id, { onDelete: 'set null' }),
    templateName: text('template_name').notNull(),
    format: text('format').notNull(),
    mode: text('mode', { enum: ['changes', 'all'] }).notNull(),
    status: text('status', { enum: ['running', 'succeeded', 'failed', 'superseded'] }).notNull(),
    published: boolean('published').notNull().default(false),
    fromXid: xid8('from_xid'),
    toXid: xid8('to_xid'),
    startedBy: text('started_by').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    rows: integer('rows'),
    bytes: bigint('bytes', { mode: 'number' }),
    fileKey: text('file_key'),
    fileName: text('file_name'),
    /** The documents' zip (a template with documents): its name; its key is the file's with `.zip`. */
    bundleFileName: text('bundle_file_name'),
    /** Column name → values its code table did not list. */
    unmapped: jsonb('unmapped').$type<Record<string, number>>(),
    message: text('message'),
    /** Its files withdrawn (issue 49): an applicant they carried was erased; `message` says so. */
    withdrawnAt: timestamp('withdrawn_at', { withTimezone: true }),
  },
  (t) => [index('export_runs_template').on(t.templateId, t.id)],
);

/** Which applicants each run carried: the disclosure record of an export (issue 32). No foreign key: the record outlives the account. */
export const exportRunApplicants = pgTable(
  'export_run_applicants',
  {
    runId: integer('run_id')
      .notNull()
      .references(() => exportRuns.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.userId] }), index('export_run_applicants_user').on(t.userId)],
);

/**
 * Machine clients of the exports (issue 32): an SIS pulling its templates' runs over HTTPS with a
 * key of its own. Only the key's SHA-256 is kept; a revoked client's key opens nothing.
 */
export const exportClients = pgTable('export_clients', {
  id: serial('id').primaryKey(),
  name: text('name').notNull().unique(),
  keyHash: text('key_hash').notNull().unique(),
  /** The templates it may read and run. */
  templateIds: integer('template_ids').array().notNull(),
  createdByEmail: text('created_by_email').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
  lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
});

/** The office's corrections of submitted answers (issue 32): what the answer was, what it became, why and by whom. */
export const answerCorrections = pgTable(
  'answer_corrections',
  {
    id: serial('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    fromValue: jsonb('from_value').$type<string | number | boolean | null>(),
    toValue: jsonb('to_value').$type<string | number | boolean | null>(),
    reason: text('reason').notNull(),
    byEmail: text('by_email').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [index('answer_corrections_user').on(t.userId, t.id)],
);

/** How long each cycle's applications are kept (issue 32): from `delete_after` on, a term's applications are erased. */
export const retentionRules = pgTable('retention_rules', {
  term: text('term').primaryKey(),
  deleteAfter: text('delete_after').notNull(),
  updatedByEmail: text('updated_by_email').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

/**
 * Who may sign in to the console with the institution's identity (issue 32), set by an
 * administrator: the e-mail domains let in, and which value of which claim makes which role. One row.
 */
export const staffSignInRules = pgTable('staff_sign_in_rules', {
  id: integer('id').primaryKey().default(1),
  domains: text('domains').array().notNull(),
  roleClaim: text('role_claim').notNull(),
  roleMappings: jsonb('role_mappings').$type<{ value: string; role: (typeof STAFF_ROLES)[number] }[]>().notNull(),
  updatedByEmail: text('updated_by_email').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

/**
 * Stored files to remove (issue 49): queued in the transaction that made them no one's (an
 * erasure, a withdrawn export run), removed after its commit, and by the worker's sweep after a
 * crash. A key ending in `/` is a folder: everything under it goes. `not_before`: an erased
 * applicant's folders are queued a second time, due once every upload signed before the erasure
 * has had time to land, and removed again then.
 */
export const storagePurges = pgTable(
  'storage_purges',
  {
    key: text('key').notNull(),
    notBefore: timestamp('not_before', { withTimezone: true }).notNull().defaultNow(),
    reason: text('reason').notNull(),
    queuedAt: timestamp('queued_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.key, t.notBefore] })],
);
