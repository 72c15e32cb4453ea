import { useQuery } from '@tanstack/react-query';
import { BOUND_ANSWER_NOTES } from '../../../domain/recommenders';
import { profileQuery, type Profile } from '../../lib/api/profile';

const NONE: Readonly<Record<string, string>> = {};

/** Each bound answer with why, for those the form knows how to say (structurally shared: the same object while nothing changes). */
const notesOf = (profile: Profile): Readonly<Record<string, string>> => {
  const keys = (profile.bound_answers ?? []).filter((key) => key in BOUND_ANSWER_NOTES);
  return keys.length ? Object.fromEntries(keys.map((key) => [key, BOUND_ANSWER_NOTES[key]!])) : NONE;
};

/**
 * The answers the applicant can no longer change (issue 49: the waiver, while a recommender asked
 * under it stands), each with why; read from the profile the form already holds, asked again when
 * a recommender is asked or withdrawn.
 */
export function useBoundAnswers(loggedIn: boolean): Readonly<Record<string, string>> {
  return useQuery({ ...profileQuery, enabled: loggedIn, select: notesOf }).data ?? NONE;
}
