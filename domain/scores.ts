import type { ReviewFormDefinition } from './reviews';

/**
 * The committee's scores (issue 51 §1): what an application's reviews add up to, and a composite
 * score an administrator defines for the cycle as a weighted sum. The spec says nothing of scoring:
 * these rules and texts are ours.
 */

/** What a composite's term weighs: a scale's mean rating, the share of reviews recommending something, or a numeric answer. */
export type CompositeSource = 'scale' | 'recommendation' | 'answer';

export interface CompositeTerm {
  source: CompositeSource;
  /** The scale's or recommendation's name on the review form, or a key of NUMERIC_ANSWERS. */
  name: string;
  weight: number;
}

export interface CompositeFormulaDefinition {
  terms: CompositeTerm[];
}

/** The answers a formula can weigh, each read from the application's answers as a number, or null. */
export const NUMERIC_ANSWERS: Record<string, { label: string; valueOf: (answer: Readonly<Record<string, unknown>>) => number | null }> = {
  hs_gpa: { label: 'GPA as reported', valueOf: (answer) => leadingNumber(answer.hs_gpa) },
  // GPAs on 5.0, 6.0 and 100-point scales are only comparable once brought to one scale.
  gpa_on_4: {
    label: 'GPA on a 4.0 scale',
    valueOf: (answer) => {
      const gpa = leadingNumber(answer.hs_gpa);
      const scale = answer.gpa_scale === 'Other' ? leadingNumber(answer.gpa_scale_other) : leadingNumber(answer.gpa_scale);
      if (gpa === null || scale === null || scale <= 0 || gpa > scale) return null;
      return (gpa * 4) / scale;
    },
  },
};

/** "3.85", "3.85 weighted", "95" as numbers; anything that does not start with a number is not one. */
function leadingNumber(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const match = value.trim().match(/^\d+(?:\.\d+)?/);
  return match ? Number(match[0]) : null;
}

export const scoreMessages = {
  termRepeated: 'Each part of the formula can be weighed once.',
  weightZero: 'A weight of 0 adds nothing: remove the part instead.',
  noFormula: 'No composite score yet: an administrator defines its formula.',
  noReviews: 'No reviews yet.',
  nameRequired: 'Choose what this part weighs.',
  weightNumber: 'Enter a weight from −100 to 100, for example 2 or 0.5.',
} as const;

/** A weight as typed ("2", "0.5", "-1", "−1"), or null when it is not a number from −100 to 100. */
export function weightOf(text: string): number | null {
  const trimmed = text.trim().replace('−', '-');
  if (!/^-?\d+(?:\.\d+)?$|^-?\.\d+$/.test(trimmed)) return null;
  const weight = Number(trimmed);
  return weight >= -100 && weight <= 100 ? weight : null;
}

/** A formula being edited, before it is sent: each part's faults the server would refuse by its contract. */
export function compositeDraftErrors(terms: readonly { name: string; weight: string }[]): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  terms.forEach((term, index) => {
    const faults = [...(term.name ? [] : [scoreMessages.nameRequired]), ...(weightOf(term.weight) === null ? [scoreMessages.weightNumber] : [])];
    if (faults.length) errors[`terms.${index}`] = faults;
  });
  return errors;
}

/** A term that names something the review form or the answers do not have. */
export const termUnknown = (term: CompositeTerm) =>
  term.source === 'scale'
    ? `${term.name} is not a scale of the review form.`
    : term.source === 'recommendation'
      ? `${term.name} is not a recommendation of the review form.`
      : `${term.name} is not an answer a formula can weigh.`;

/** Why an application's composite could not be computed: a part of it has no value. */
export const compositeMissing = (labels: readonly string[]) => `Not computed: no ${labels.join(', ')}.`;

/** A term as people read it: "Academics (mean rating)", "Admit (share of reviews)", "GPA on a 4.0 scale". */
export const termLabel = (term: Pick<CompositeTerm, 'source' | 'name'>) =>
  term.source === 'scale' ? `${term.name} (mean rating)` : term.source === 'recommendation' ? `${term.name} (share of reviews)` : (NUMERIC_ANSWERS[term.name]?.label ?? term.name);

/** A formula's faults, by term (`terms.<index>`), against the review form in force. */
export function compositeFormulaErrors(formula: CompositeFormulaDefinition, form: ReviewFormDefinition): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const seen = new Set<string>();
  formula.terms.forEach((term, index) => {
    const known =
      term.source === 'scale' ? form.scales.some((scale) => scale.name === term.name) : term.source === 'recommendation' ? form.recommendations.includes(term.name) : term.name in NUMERIC_ANSWERS;
    const faults: string[] = [];
    if (!known) faults.push(termUnknown(term));
    const key = `${term.source}:${term.name}`;
    if (seen.has(key)) faults.push(scoreMessages.termRepeated);
    seen.add(key);
    if (term.weight === 0) faults.push(scoreMessages.weightZero);
    if (faults.length) errors[`terms.${index}`] = faults;
  });
  return errors;
}

/** What an application's signed reviews add up to. */
export interface ReviewTally {
  reviews: number;
  /** Each scale's mean rating, over the reviews that rated it. */
  means: Record<string, number>;
  /** How many reviews recommend each thing. */
  recommendations: Record<string, number>;
}

export function tallyOf(reviews: readonly { ratings: readonly { scale: string; rating: number }[]; recommendation: string }[]): ReviewTally {
  const sums = new Map<string, { total: number; count: number }>();
  const recommendations: Record<string, number> = {};
  for (const review of reviews) {
    for (const { scale, rating } of review.ratings) {
      const sum = sums.get(scale) ?? { total: 0, count: 0 };
      sums.set(scale, { total: sum.total + rating, count: sum.count + 1 });
    }
    recommendations[review.recommendation] = (recommendations[review.recommendation] ?? 0) + 1;
  }
  return { reviews: reviews.length, means: Object.fromEntries([...sums].map(([scale, { total, count }]) => [scale, total / count])), recommendations };
}

/** One term of a composite as computed: what it weighed, and what it added. */
export interface CompositePart {
  source: CompositeSource;
  name: string;
  weight: number;
  value: number | null;
  points: number | null;
}

export interface Composite {
  /** The weighted sum, or null when the formula is empty, there is no review, or a term has no value. */
  score: number | null;
  parts: CompositePart[];
  /** Why there is no score; null when there is one. */
  reason: string | null;
}

/** Kept to four places: a mean of thirds would otherwise differ in its last digit between runs of the same sum. */
const rounded = (value: number) => Math.round(value * 10_000) / 10_000;

/**
 * The composite score: Σ weight × value over the formula's terms. It is a committee's score, so it
 * waits for the first review; a term without a value (a scale no review rated, a GPA not given)
 * leaves the score uncomputed rather than counting it as 0, which would rank the file low unfairly.
 */
export function compositeOf(formula: CompositeFormulaDefinition, tally: ReviewTally, answer: Readonly<Record<string, unknown>>): Composite {
  const parts: CompositePart[] = formula.terms.map((term) => {
    const value =
      term.source === 'scale'
        ? (tally.means[term.name] ?? null)
        : term.source === 'recommendation'
          ? tally.reviews
            ? (tally.recommendations[term.name] ?? 0) / tally.reviews
            : null
          : (NUMERIC_ANSWERS[term.name]?.valueOf(answer) ?? null);
    return { source: term.source, name: term.name, weight: term.weight, value: value === null ? null : rounded(value), points: value === null ? null : rounded(term.weight * value) };
  });
  if (!formula.terms.length) return { score: null, parts, reason: scoreMessages.noFormula };
  if (!tally.reviews) return { score: null, parts, reason: scoreMessages.noReviews };
  const missing = parts.filter((part) => part.value === null);
  if (missing.length) return { score: null, parts, reason: compositeMissing(missing.map((part) => termLabel(part))) };
  return { score: rounded(parts.reduce((sum, part) => sum + part.points!, 0)), parts, reason: null };
}

/** A score's measure in the list: the composite, the number of reviews, a scale's mean, or a recommendation's count. */
export type ScoreMeasure = { kind: 'composite' } | { kind: 'reviews' } | { kind: 'mean'; name: string } | { kind: 'recommended'; name: string };

/** `composite`, `reviews`, `mean:Academics`, `recommended:Admit` (the list's `score` parameter). */
export function scoreMeasureOf(text: string): ScoreMeasure | null {
  if (text === 'composite' || text === 'reviews') return { kind: text };
  const match = text.match(/^(mean|recommended):(.+)$/);
  if (!match) return null;
  return { kind: match[1] as 'mean' | 'recommended', name: match[2]! };
}

/** "Composite score", "Reviews", "Academics (mean)", "Admit (reviews)": a measure as the list's controls name it. */
export const scoreMeasureLabel = (measure: ScoreMeasure) =>
  measure.kind === 'composite' ? 'Composite score' : measure.kind === 'reviews' ? 'Reviews' : measure.kind === 'mean' ? `${measure.name} (mean)` : `${measure.name} (reviews)`;

/** A score as the console shows it: at most two decimals ("12.1", "3.33", "−1.5"). */
export const scoreText = (value: number) => value.toLocaleString('en-US', { maximumFractionDigits: 2 }).replace('-', '−');
