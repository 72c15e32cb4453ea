/** The console's addresses. */
export const STAFF_HOME = '/staff';
/** The list of what I have been given to read and not yet reviewed. */
export const MY_QUEUE = `${STAFF_HOME}?queue=mine`;
export const STAFF_LOGIN = '/staff/login';
/**
 * One application, opened from a list: the list's own address (filters, search, sort, page) rides
 * along, so next / previous walk that list and "Back" returns to it.
 */
export const applicationPath = (id: string, list?: URLSearchParams) => {
  const path = `/staff/applications/${encodeURIComponent(id)}`;
  const query = new URLSearchParams(list);
  query.delete('at');
  return query.size > 0 ? `${path}?${query}` : path;
};

/** The list's address with these filters, its page, and the row to come back to. */
export const listPath = (list: URLSearchParams, at?: string) => {
  const query = new URLSearchParams(list);
  if (at) query.set('at', at);
  else query.delete('at');
  return query.size > 0 ? `${STAFF_HOME}?${query}` : STAFF_HOME;
};

/** Where the console's tabs share the time of the last activity (the idle timer). */
export const STAFF_ACTIVITY_KEY = 'portal.staffLastActivity';

/** A date and time as an officer reads it, in their own time zone. */
export const whenText = (iso: string | null) => (iso ? new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso)) : '—');
