import type { PageDef } from './types';

/** The three steps in order (spec/form.md §2); every view takes a step's route and title from here. */
export const pages: readonly PageDef[] = [
  { id: 'about', path: '/about', title: 'About You' },
  { id: 'education', path: '/education', title: 'Academics' },
  { id: 'final-steps', path: '/final-steps', title: 'Final Steps' },
];
