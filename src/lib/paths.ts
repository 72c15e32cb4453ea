/** The routes of spec/platform.md §2 and spec/form.md §2. */
export const formPaths = { about: '/about', education: '/education', finalSteps: '/final-steps' } as const;
export const COMPLETION_PATH = '/completion';
export const DEFAULT_FORM_PATH = formPaths.about;
export const authPaths = { login: '/login', signup: '/signup', confirm: '/confirm', forgot: '/forgot', reset: '/reset' } as const;

export const formSteps = [
  { path: formPaths.about, title: 'About You' },
  { path: formPaths.education, title: 'Academics' },
  { path: formPaths.finalSteps, title: 'Final Steps' },
] as const;
