/** Paths the server answers itself; any other GET is a client route and gets index.html. */
const serverPrefixes = ['/api/', '/public/', '/lookup/', '/service/', '/upload', '/dev/', '/healthz', '/staff/api/', '/staff/public/'];

/** Whether a request URL (query and all) is one of the server's own calls rather than a page of the client. */
export const isServerCall = (url: string): boolean => {
  const path = url.split('?')[0] ?? '/';
  return serverPrefixes.some((prefix) => path.startsWith(prefix));
};
