/** The console's addresses. */
export const STAFF_HOME = '/staff';
export const STAFF_LOGIN = '/staff/login';
export const applicationPath = (id: string) => `/staff/applications/${encodeURIComponent(id)}`;

/** Where the console's tabs share the time of the last activity (the idle timer). */
export const STAFF_ACTIVITY_KEY = 'portal.staffLastActivity';

/** A date and time as an officer reads it, in their own time zone. */
export const whenText = (iso: string | null) => (iso ? new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso)) : '—');
