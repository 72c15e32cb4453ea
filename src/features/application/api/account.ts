import { queryOptions } from '@tanstack/react-query';
import type { components } from '../../../../generated/api';
import { api } from '../../../lib/api/client';

type Schemas = components['schemas'];

/** Every call throws ServerError / UnauthorizedError on failure (see errors.ts), so data is present. */
export const must = <T>(data: T | undefined): T => data as T;

export const accountApi = {
  login: async (body: Schemas['LoginRequest']) => must((await api.POST('/public/login', { body })).data),
  signup: async (body: Schemas['SignupRequest']) => must((await api.POST('/public/signup', { body })).data),
  confirm: async (body: Schemas['ConfirmRequest']) => must((await api.POST('/public/confirm', { body })).data),
  resendConfirm: async (body: Schemas['UsernameRequest']) => must((await api.POST('/public/resend-confirm', { body })).data),
  forgotPassword: async (body: Schemas['UsernameRequest']) => must((await api.POST('/public/forgot-password', { body })).data),
  resetPassword: async (body: Schemas['ResetPasswordRequest']) => must((await api.POST('/public/reset-password', { body })).data),
  logout: async () => must((await api.GET('/api/logout')).data),
  keepAlive: async () => must((await api.POST('/api/keep-alive')).data),
  putAnswer: async (body: Schemas['StudentAnswers'], keepalive = false) =>
    // keepalive lets the save finish when the page is being closed.
    must((await api.PUT('/api/answer', { body, ...(keepalive ? { keepalive: true } : {}) })).data),
  postValidations: async (body: Schemas['FieldErrors']) => must((await api.POST('/api/validations', { body })).data),
  submit: async () => must((await api.POST('/api/submit')).data),
  getAddAnother: async () => must((await api.GET('/api/add-another')).data),
  putAddAnother: async (button_id: string, num_components: number) =>
    must((await api.PUT('/api/add-another', { body: { button_id, num_components } })).data),
  getTabs: async () => must((await api.GET('/api/tabs')).data),
  putTab: async (tab_id: string, chosen_tab: string) => must((await api.PUT('/api/tabs', { body: { tab_id, chosen_tab } })).data),
  putLastPage: async (last_page: string) => must((await api.PUT('/api/last-page', { body: { last_page } })).data),
};

export const anonymousApi = {
  save: async (body: Schemas['SaveAnonymousRequest']) => must((await api.POST('/public/tmp', { body })).data),
  restore: async (token: string) => must((await api.GET('/public/tmp', { params: { query: { token } } })).data),
};

export const profileQuery = queryOptions({
  queryKey: ['profile'],
  queryFn: async ({ signal }) => must((await api.GET('/api/profile', { signal })).data),
});

export type Profile = Schemas['Profile'];
