import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../../../generated/api';
import { api, dataOf } from '../../../lib/api/client';
import { uploadFile } from '../../../lib/api/upload';

type RecommendationRequest = components['schemas']['RecommendationRequest'];

const converting = (request: RecommendationRequest | undefined) => request?.letter?.status === 'unprocessed' || request?.letter?.status === 'in_progress';

/**
 * GET /public/recommendation: what the link is for; asked every 2 seconds while the letter
 * converts (the answer then turns into "submitted", a 409 the page shows as the thanks).
 */
export const recommendationQuery = (token: string) =>
  queryOptions({
    queryKey: ['recommendation', token],
    queryFn: () => dataOf(api.GET('/public/recommendation', { params: { query: { token } } })),
    retry: false,
    refetchInterval: (query) => (converting(query.state.data) ? 2_000 : false),
  });

type Answers = Omit<components['schemas']['RecommendationSubmit'], 'file_key' | 'file_name'>;

/** The letter uploaded with its own policy, then POST /public/recommendation with the answers; the request's state replaces the one shown. */
export function useSendRecommendation(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ answers, file, contentType }: { answers: Answers; file: File; contentType: components['schemas']['UploadContentType'] }) => {
      const query = { token };
      const post = await dataOf(api.POST('/public/recommendation/upload', { params: { query }, body: { content_type: contentType } }));
      await uploadFile(post, file);
      return dataOf(api.POST('/public/recommendation', { params: { query }, body: { ...answers, file_key: post.fields.key, file_name: file.name } }));
    },
    onSuccess: (request) => {
      const { queryKey } = recommendationQuery(token);
      queryClient.setQueryData(queryKey, request);
      // Asked at once (a small letter is converted by then), then every 2 seconds while it converts.
      return queryClient.invalidateQueries({ queryKey });
    },
  });
}
