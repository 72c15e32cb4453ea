import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../../../generated/api';
import { $api, api, dataOf, doneOf } from '../../../lib/api/client';
import { profileQuery } from '../../../lib/api/profile';
import { uploadFile } from '../../../lib/api/upload';

type ApplicantChecklist = components['schemas']['ApplicantChecklist'];
type Invitation = components['schemas']['InvitationRequest'];

/** A file I sent is still being converted: the checklist is asked again until it is done. */
const converting = (checklist: ApplicantChecklist | undefined) => Boolean(checklist?.items.some((item) => item.files.some((file) => file.status === 'unprocessed' || file.status === 'in_progress')));

/** GET /api/checklist: what my submitted application still needs; asked every 2 seconds while a file of mine converts. */
export const myChecklistQuery = queryOptions({
  ...$api.queryOptions('get', '/api/checklist'),
  refetchInterval: (query) => (converting(query.state.data) ? 2_000 : false),
});

/** GET /api/recommenders: those I asked, and where each recommendation stands. */
export const myRecommendersQuery = $api.queryOptions('get', '/api/recommenders');

/** A file for an item I may send: a signed policy, the upload, then POST /api/checklist/{key}/materials. */
export function useSendMyMaterial() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ key, file, contentType }: { key: string; file: File; contentType: components['schemas']['UploadContentType'] }) => {
      const path = { key };
      const post = await dataOf(api.POST('/api/checklist/{key}/upload', { params: { path }, body: { content_type: contentType } }));
      await uploadFile(post, file);
      return dataOf(api.POST('/api/checklist/{key}/materials', { params: { path }, body: { file_key: post.fields.key, file_name: file.name } }));
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: myChecklistQuery.queryKey }),
  });
}

/** PUT /api/checklist/reminders: the checklist shown keeps the choice as the server kept it. */
export function useSetMyReminders() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (enabled: boolean) => dataOf(api.PUT('/api/checklist/reminders', { body: { enabled } })),
    onSuccess: ({ enabled }) => queryClient.setQueryData(myChecklistQuery.queryKey, (checklist: ApplicantChecklist | undefined) => checklist && { ...checklist, reminders: enabled }),
  });
}

const refreshRecommenders = (queryClient: ReturnType<typeof useQueryClient>) => queryClient.invalidateQueries({ queryKey: myRecommendersQuery.queryKey });
/** A request asked or withdrawn may bind or free the waiver: the profile (its `bound_answers`) is read again. */
const refreshBinding = (queryClient: ReturnType<typeof useQueryClient>) => Promise.all([refreshRecommenders(queryClient), queryClient.invalidateQueries({ queryKey: profileQuery.queryKey })]);

/** POST /api/recommenders: the list is read again (the new one joins it), and the profile (a waiver it binds). */
export function useInviteRecommender() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Invitation) => dataOf(api.POST('/api/recommenders', { body })),
    onSuccess: () => refreshBinding(queryClient),
  });
}

/** POST /api/recommenders/{recommender}/resend. */
export function useResendRecommender() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (recommender: string) => dataOf(api.POST('/api/recommenders/{recommender}/resend', { params: { path: { recommender } } })),
    onSuccess: () => refreshRecommenders(queryClient),
  });
}

/** DELETE /api/recommenders/{recommender}: withdrawn, it leaves the list (and may free the waiver). */
export function useWithdrawRecommender() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (recommender: string) => doneOf(api.DELETE('/api/recommenders/{recommender}', { params: { path: { recommender } } })),
    onSuccess: () => refreshBinding(queryClient),
  });
}

/** A recommender's letter as a PDF, a plain link (only when I did not waive my right to see it). */
export const letterUrl = (recommender: string) => `/api/recommenders/${encodeURIComponent(recommender)}/letter`;
