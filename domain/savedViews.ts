/**
 * Saved views of the applications list (issue 51 §1): a name for the list's address (its filters,
 * search, score and order) and its columns, kept for a member or shared with the office.
 */

export const savedViewMessages = {
  nameTaken: 'You already have a view of this name: choose another name, or change that view.',
  notYours: 'Only the member who saved this view can change it; save it as a view of your own.',
  notFound: 'We could not find that view: it may have been removed. Reload the page.',
  nameRequired: 'Name the view.',
} as const;
