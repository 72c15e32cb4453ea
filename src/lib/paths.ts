import { pages } from '../../domain/catalogue/pages';

/** The routes of spec/platform.md §2; the form's steps and their titles come from the catalogue's pages. */
export const COMPLETION_PATH = '/completion';
export const DEFAULT_FORM_PATH = pages[0]!.path;
export const authPaths = { login: '/login', signup: '/signup', confirm: '/confirm', forgot: '/forgot', reset: '/reset' } as const;
